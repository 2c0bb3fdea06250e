#!/usr/bin/env python3
"""End-to-end check of the `sonde` tool on a real trace.

Runs the handwritten example (probes written with libsonde's API) in a fresh
directory, then checks what `sonde export --format jsonl|chrome`, `summary
--json`, `info` and `dump` print, and that bad invocations fail with the
documented exit codes. Usage: check_exports.py SONDE HANDWRITTEN
"""
import json
import os
import subprocess
import sys
import tempfile

SONDE, PROGRAM = sys.argv[1], sys.argv[2]
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, code=0):
    p = subprocess.run([SONDE, *args], capture_output=True, text=True)
    check(p.returncode == code,
          f"sonde {' '.join(args)}: exit {p.returncode}, expected {code}: {p.stderr}")
    return p


tmp = tempfile.mkdtemp(prefix="sonde-exports-")
env = dict(os.environ, SONDE_OUTPUT=tmp)
out = subprocess.run([PROGRAM, "3"], env=env, capture_output=True, text=True, check=True)
EPOCHS, BATCHES = 3, 2048 // 32

# --- JSONL (docs/cli.md) -----------------------------------------------------
lines = run("export", tmp, "--format", "jsonl").stdout.splitlines()
recs = [json.loads(l) for l in lines]
check(recs[0]["kind"] == "process" and recs[0]["event"] == "start", "first record is the process start")
check(recs[-1]["kind"] == "process" and recs[-1]["event"] == "end", "last record is the process end")
check(recs[-1]["how"] == "exit" and recs[-1]["dropped"] == 0, "process ended by exit, nothing dropped")
regions = [r for r in recs if r["kind"] == "region"]
for r in regions:
    for field in ("cat", "name", "ts", "dur", "pid", "tid", "rank", "site", "file", "line", "func", "level"):
        check(field in r, f"region has '{field}': {r}")
by_name = {}
for r in regions:
    by_name.setdefault((r["cat"], r["name"]), []).append(r)
check(len(by_name[("pipeline", "train")]) == 1, "one train region")
check(len(by_name[("pipeline", "epoch")]) == EPOCHS, "one epoch region per epoch")
for cat, name in [("compute", "forward"), ("compute", "backward"), ("compute", "step"),
                  ("dataloader", "fetch.iter"), ("dataloader", "fetch.block")]:
    check(len(by_name[(cat, name)]) == EPOCHS * BATCHES, f"{name}: one per batch")
# Context: the epoch arg reaches every record nested in the epoch.
fwd = by_name[("compute", "forward")]
check([r["args"]["epoch"] for r in fwd] == [e for e in range(EPOCHS) for _ in range(BATCHES)],
      "forward records carry the epoch as context")
check([r["iter"] for r in by_name[("dataloader", "fetch.block")]] == list(range(BATCHES)) * EPOCHS,
      "loop blocks carry their iteration index")
check(all(r["level"] == 2 for r in fwd) or all(r["level"] == 3 for r in fwd), "forward nests at one level")
# Times: ns since the Unix epoch, in order, nested regions inside their parent.
ts = [r["ts"] for r in recs[1:-1]]
check(ts == sorted(ts), "records are in time order")
check(1.6e18 < ts[0] < 4e18, "timestamps are ns since the Unix epoch")
train = by_name[("pipeline", "train")][0]
check(all(train["ts"] <= r["ts"] and r["ts"] + r["dur"] <= train["ts"] + train["dur"]
          for r in regions if r is not train), "every region lies inside train")
watches = [r for r in recs if r["kind"] == "watch"]
check(len(watches) == EPOCHS and all(w["name"] == "loss" for w in watches), "one loss watch per epoch")
printed = [float(l.split()[-1]) for l in out.stdout.splitlines() if l.startswith("epoch")]
check([round(w["value"], 4) for w in watches] == printed, "watched losses are the printed ones")

# --- Chrome / Perfetto ----------------------------------------------------------
chrome = json.loads(run("export", tmp, "--format", "chrome").stdout)
ev = chrome["traceEvents"]
check(isinstance(ev, list) and ev, "traceEvents is a non-empty list")
for e in ev:
    check(e["ph"] in ("X", "i", "M", "C"), f"known phase: {e}")
    check("pid" in e and "name" in e, f"pid and name: {e}")
    if e["ph"] != "M":
        check(isinstance(e["ts"], (int, float)) and "tid" in e, f"ts and tid: {e}")
    if e["ph"] == "X":
        check(isinstance(e["dur"], (int, float)) and e["dur"] >= 0, f"X has dur: {e}")
meta = {e["name"] for e in ev if e["ph"] == "M"}
check({"process_name", "thread_name"} <= meta, "process and thread names")
check(sum(1 for e in ev if e["ph"] == "X") == len(regions), "one X event per region")
check(sum(1 for e in ev if e["ph"] == "C" and e["name"] == "loss") == EPOCHS, "loss as a counter track")
x0 = next(e for e in ev if e["ph"] == "X" and e["name"] == "train")
check(abs(x0["ts"] - train["ts"] / 1000) < 1 and abs(x0["dur"] - train["dur"] / 1000) < 1,
      "chrome times are the JSONL times in microseconds")

# --- summary, info, dump --------------------------------------------------------
summary = json.loads(run("summary", tmp, "--json").stdout)
rows = {(r["cat"], r["name"]): r for r in summary["regions"]}
check(rows[("compute", "forward")]["count"] == EPOCHS * BATCHES, "summary counts forward")
f = rows[("compute", "forward")]
check(f["p50_ns"] <= f["p99_ns"] and f["mean_ns"] * f["count"] <= f["total_ns"] + f["count"], "summary stats are consistent")
loss = summary["watches"][0]
check(loss["name"] == "loss" and loss["count"] == EPOCHS and loss["last"] == loss["min"], "loss falls to its min")
check(summary["dropped"] == 0 and summary["processes"][0]["how"] == "exit", "summary process")
text = run("summary", tmp).stdout
check("forward" in text and "loss" in text, "text summary names regions and watches")
info = json.loads(run("info", tmp, "--json").stdout)
check(info["how"] == "exit" and info["sites"] >= 8, "info reads the end record and sites")
trace_file = os.path.join(tmp, [f for f in os.listdir(tmp) if f.endswith(".sonde")][0])
check("events:" in run("dump", trace_file).stdout, "dump lists events")

# --- errors -----------------------------------------------------------------------
run(code=2)
run("frobnicate", tmp, code=2)
run("export", tmp, code=2)
run("export", tmp, "--format", "xml", code=2)
run("summary", "--bogus", tmp, code=2)
run("summary", os.path.join(tmp, "missing.sonde"), code=1)
junk = os.path.join(tmp, "junk.sonde")
open(junk, "w").write("not a trace")
p = run("summary", junk, code=1)
check("not a sonde trace" in p.stderr, "bad file is named as such")
# A torn file: read up to the tear, with a warning on stderr.
data = open(trace_file, "rb").read()
torn = os.path.join(tmp, "torn", "t.sonde")
os.makedirs(os.path.dirname(torn))
open(torn, "wb").write(data[: len(data) * 2 // 3])
p = run("summary", torn, "--json")
check("stopped at byte" in p.stderr or "no end record" in p.stderr, "torn file is reported")

print(f"{checks - len(failures)} checks passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
