#!/usr/bin/env python3
"""End-to-end check of the `sonde` tool on a real trace.

Runs the handwritten example (probes written with libsonde's API) in a fresh
directory, then checks what `sonde export --format
jsonl|chrome|dftracer|traincheck|csv`, `merge`, `summary --json`, `info` and
`dump` print, and that bad invocations fail with the documented exit codes.
Merge is checked on two ranks of the example and on a forked process
(exit-paths). Usage: check_exports.py SONDE HANDWRITTEN EXIT_PATHS
"""
import csv
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile

SONDE, PROGRAM, EXIT_PATHS = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, code=0, cwd=None):
    p = subprocess.run([SONDE, *args], capture_output=True, text=True, cwd=cwd)
    check(p.returncode == code,
          f"sonde {' '.join(args)}: exit {p.returncode}, expected {code}: {p.stderr}")
    return p


tmp = tempfile.mkdtemp(prefix="sonde-exports-")
env = dict(os.environ, SONDE_OUTPUT=tmp)
out = subprocess.run([PROGRAM, "3"], env=env, capture_output=True, text=True, check=True)
EPOCHS, BATCHES = 3, 2048 // 32

# --- JSONL (docs/exports.md) ------------------------------------------------
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
# Times: ns since the origin the start record gives (a string: ns since the
# Unix epoch), in order, nested regions inside their parent; every integer
# exact in a double (below 2^53), as jq and JavaScript read them.
ts = [r["ts"] for r in recs[1:-1]]
origin = int(recs[0]["origin_unix_ns"])
check(ts == sorted(ts), "records are in time order")
check(1.6e18 < origin < 4e18, "the origin is ns since the Unix epoch")
check(recs[0]["ts"] == 0 and 0 <= ts[0] < 60e9, "timestamps count from the process start")
check(all(isinstance(v, str) or v is None or abs(v) < 2**53
          for r in recs for k, v in r.items() if k in ("ts", "dur", "site", "pid", "tid")),
      "no JSONL integer above 2^53")
check(all(len(r.get("site_id", "0" * 16)) == 16 for r in recs), "site_id: 16 hex digits")
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
check(chrome["otherData"]["origin_unix_ns"] == recs[0]["origin_unix_ns"], "chrome: the origin in otherData")
check(all(e.get("cat") == "__metadata" for e in ev if e["ph"] == "M"), "chrome: M events have a cat")
# As Perfetto reads them (a double of us, made ns): every region exactly.
chrome_x = [e for e in ev if e["ph"] == "X"]
check([round(e["ts"] * 1000) for e in chrome_x] == [r["ts"] for r in regions] and
      [round(e["dur"] * 1000) for e in chrome_x] == [r["dur"] for r in regions],
      "chrome: every region's ns survive a double")

# --- DFTracer (.pfw: "[", JSON lines, "]") ------------------------------------
def dftracer_lines(text):
    lines = text.splitlines()
    check(lines[0] == "[" and lines[-1] == "]", "dftracer: [ first and ] last")
    return [json.loads(l) for l in lines[1:-1]]


dft = dftracer_lines(run("export", tmp, "--format", "dftracer").stdout)
xs = [e for e in dft if e["ph"] == "X"]
ms = [e for e in dft if e["ph"] == "M"]
for e in dft:
    for field in ("id", "name", "cat", "pid", "tid", "ph", "args"):
        check(field in e, f"dftracer line has '{field}': {e}")
for e in xs:
    check(isinstance(e["ts"], int) and isinstance(e["dur"], int) and e["dur"] >= 0,
          f"dftracer ts and dur are integer microseconds: {e}")
    check("hhash" in e["args"] and "level" in e["args"], f"dftracer args hhash, level: {e}")
check(len({e["id"] for e in dft}) == len(dft), "dftracer ids are unique")
check({"process_name", "thread_name", "HH"} <= {e["name"] for e in ms}, "dftracer metadata lines")
hh = next(e for e in ms if e["name"] == "HH")
check(all(e["args"]["hhash"] == hh["args"]["value"] for e in xs), "every event's hhash is the HH line's")
dfwd = [e for e in xs if e["name"] == "forward"]
check(len(dfwd) == EPOCHS * BATCHES and [e["args"]["epoch"] for e in dfwd] == [r["args"]["epoch"] for r in fwd],
      "dftracer forward events carry the epoch")
check(all(d["ts"] == (origin + r["ts"]) // 1000 for d, r in zip(dfwd, fwd)), "dftracer ts is the JSONL time in whole us")
check(sum(1 for e in xs if e["name"] == "loss" and "value" in e["args"]) == EPOCHS, "dftracer: loss values")
pfw = os.path.join(tmp, "out", "run.pfw.gz")
os.makedirs(os.path.dirname(pfw))
run("export", tmp, "--format", "dftracer", "-o", pfw)
with gzip.open(pfw, "rt") as f:
    check(dftracer_lines(f.read()) == dft, ".pfw.gz is the gzip of the same lines")

# --- TrainCheck ------------------------------------------------------------------
tc = [json.loads(l) for l in run("export", tmp, "--format", "traincheck").stdout.splitlines()]
api = [r for r in tc if "func_call_id" in r]
var = [r for r in tc if "var_name" in r]
check(len(api) + len(var) == len(tc), "traincheck: every line is an API or a variable record")
for r in api:
    for field in ("func_call_id", "thread_id", "process_id", "meta_vars", "type", "function", "time"):
        check(field in r, f"traincheck API record has '{field}': {r}")
    check(r["type"] in ("function_call (pre)", "function_call (post)"), f"traincheck type: {r}")
for r in var:
    for field in ("var_name", "var_type", "mode", "attributes", "time", "meta_vars", "process_id", "thread_id"):
        check(field in r, f"traincheck variable record has '{field}': {r}")
pre = {r["func_call_id"]: r for r in api if r["type"] == "function_call (pre)"}
post = {r["func_call_id"]: r for r in api if r["type"] == "function_call (post)"}
check(pre.keys() == post.keys() and len(pre) == len(regions), "traincheck: one pre and one post per region")
check(all(pre[k]["time"] <= post[k]["time"] for k in pre), "traincheck: pre before post")
check([r["time"] for r in tc] == sorted(r["time"] for r in tc), "traincheck: in time order")
tfwd = [r for r in pre.values() if r["function"] == "forward"]
check(all(r["meta_vars"]["epoch"] == e for r, e in zip(sorted(tfwd, key=lambda r: r["time"]), [r["args"]["epoch"] for r in fwd])),
      "traincheck meta_vars carry the epoch")
check([v["attributes"]["value"] for v in var] == [w["value"] for w in watches], "traincheck: loss values")
check([v["mode"] for v in var] == ["new"] + ["update"] * (EPOCHS - 1), "traincheck: new, then update")

# --- CSV -------------------------------------------------------------------------
rows = list(csv.DictReader(io.StringIO(run("export", tmp, "--format", "csv").stdout, newline="")))
check(len(rows) == EPOCHS, "csv: one row per loss watch")
check([float(r["value"]) for r in rows] == [w["value"] for w in watches], "csv values are the watched ones")
check([int(r["epoch"]) for r in rows] == list(range(EPOCHS)), "csv: the epoch column")
check(all(r["name"] == "loss" and int(r["time_ns"]) > 1.6e18 for r in rows), "csv: name and time")

# --- merge: two ranks, then a forked child ----------------------------------------------
ranks = tempfile.mkdtemp(prefix="sonde-ranks-")
for rank in (0, 1):
    subprocess.run([PROGRAM, "2"], env=dict(os.environ, SONDE_OUTPUT=ranks, RANK=str(rank)),
                   capture_output=True, check=True)
merged_file = os.path.join(ranks, "merged.json")
p = run("merge", ranks, "-o", merged_file)
merged = json.load(open(merged_file))["traceEvents"]
pids = sorted({e["pid"] for e in merged})
check(len(pids) == 2, f"merge: both processes on one timeline: {pids}")
names = {e["args"]["name"] for e in merged if e["name"] == "process_name"}
check(names == {"handwritten (rank 0)", "handwritten (rank 1)"}, f"merge: both ranks named: {names}")
span = {}
for e in merged:
    if e["ph"] == "X":
        lo, hi = span.get(e["pid"], (1e30, 0))
        span[e["pid"]] = (min(lo, e["ts"]), max(hi, e["ts"] + e["dur"]))
(a0, a1), (b0, b1) = sorted(span.values())
check(a1 <= b0, "merge: rank 1 (run after rank 0) starts after rank 0 ends")
run("merge", ranks, "-o", os.path.join(ranks, "m.pfw"))
check(len({e["pid"] for e in dftracer_lines(open(os.path.join(ranks, "m.pfw")).read())}) == 2,
      "merge -o .pfw writes DFTracer lines of both processes")

forkdir = tempfile.mkdtemp(prefix="sonde-fork-")
N = 1000
subprocess.run([EXIT_PATHS, "fork", str(N)], env=dict(os.environ, SONDE_OUTPUT=forkdir),
               capture_output=True, check=True)
fork_jsonl = os.path.join(forkdir, "merged.jsonl")
run("merge", forkdir, "-o", fork_jsonl)
frecs = [json.loads(l) for l in open(fork_jsonl)]
starts = [r for r in frecs if r["kind"] == "process" and r["event"] == "start"]
check(len(starts) == 2, "merge: parent and child")
parent = next(r for r in starts if r["pid"] != starts[0]["pid"] or r["ppid"] not in {s["pid"] for s in starts})
child = next(r for r in starts if r is not parent)
check(child["ppid"] == parent["pid"], "the child's parent is the other process")
pw = sorted(r["ts"] for r in frecs if r["kind"] == "watch" and r["pid"] == parent["pid"])
cw = sorted(r["ts"] for r in frecs if r["kind"] == "watch" and r["pid"] == child["pid"])
check(len(pw) == 2 * N and len(cw) == 2 * N, f"merge: all watches ({len(pw)}, {len(cw)})")
# The parent records N, forks, waits for the child's 2N, then records N.
check(pw[N - 1] < cw[0] and cw[-1] < pw[N], "merge: the child's records fall between the parent's two halves")

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
p = run("merge", tmp, code=2)
check("needs -o FILE" in p.stderr, "merge without -o says so")
p = run("merge", tmp, "-o", os.path.join(tmp, "x.bin"), code=2)
check("cannot tell the format" in p.stderr, "merge to an unknown extension says so")
run("merge", tmp, "-o", os.path.join(tmp, "x.bin"), "--format", "csv")
p = run("report", tmp, code=2)
check("needs -o FILE" in p.stderr, "report without -o says so")
p = run("export", tmp, "--format", "jsonl", "--step", "x", code=2)
check("option of 'report'" in p.stderr, "--step outside report says so")
p = run("summary", tmp, "--format", "csv", code=2)
check("option of 'export' and 'merge'" in p.stderr, "--format outside export/merge says so")
p = run("report", tmp, "-o", os.path.join(tmp, "r.html"), "--step", "nosuch", code=1)
check("no region named 'nosuch'" in p.stderr and not os.path.exists(os.path.join(tmp, "r.html")),
      "report --step with an unknown region fails and leaves no file")
p = run("export", tmp, "--format", "csv", "-o", os.path.join(tmp, "no", "dir", "x.csv"), code=1)
check("cannot write" in p.stderr, "an unwritable output is named")
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

# --- conventions (issue 12 item 9) -------------------------------------------------
for cmd in ("summary", "export", "merge", "report", "dump", "info"):
    p = run(cmd, "--help")
    check(p.stdout.startswith(f"usage: sonde {cmd} ") and not p.stderr, f"sonde {cmd} --help: its usage on stdout")
    p = run(cmd, tmp, "--version")
    check(p.stdout.startswith("sonde ") and "trace format" in p.stdout, f"sonde {cmd} --version")
check(run("--help").stdout.startswith("usage: sonde <command>"), "sonde --help")
# '--' ends the options: a directory named like an option is read.
conv = tempfile.mkdtemp(prefix="sonde-conv-")
dash = os.path.join(conv, "-run")
os.makedirs(dash)
open(os.path.join(dash, "a.sonde"), "wb").write(open(trace_file, "rb").read())
p = run("summary", "--json", "--", "-run", cwd=conv)
check(json.loads(p.stdout or "{}").get("dropped") == 0, "summary -- -run reads the directory -run")
p = run("summary", "--", "--json", code=1)
check("--json: No such file or directory" in p.stderr, f"after --, --json is a path: {p.stderr}")
# Errors: 'sonde: error:' once, no color when stderr is not a terminal.
for args in (("summary", "--bogus", tmp), ("summary", os.path.join(tmp, "missing.sonde"))):
    p = subprocess.run([SONDE, *args], capture_output=True, text=True)
    check(p.stderr.count("sonde: error: ") == 1 and "sonde: sonde:" not in p.stderr and "\x1b" not in p.stderr,
          f"one plain 'sonde: error:' line: {p.stderr!r}")


def on_tty(*args, env=None):
    """stderr of sonde run with stderr on a pseudo-terminal."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.run([SONDE, *args], stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    data = b""
    try:
        while True:
            chunk = os.read(master, 4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    os.close(master)
    return p.returncode, data.decode()


no_color = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
code, err = on_tty("summary", "--bogus", tmp, env=no_color)
check(code == 2 and "sonde: \x1b[0;1;31merror: \x1b[0m\x1b[1munknown option '--bogus'" in err,
      f"on a terminal, 'error:' is bold red as clang prints it: {err!r}")
code, err = on_tty("summary", "--bogus", tmp, env=dict(no_color, NO_COLOR="1"))
check(code == 2 and "\x1b" not in err and "sonde: error: unknown option" in err, f"NO_COLOR: no color: {err!r}")
# A write that fails (a full disk) is an error, for every output.
for args in (("export", tmp, "--format", "jsonl"), ("export", tmp, "--format", "chrome"),
             ("summary", tmp), ("report", tmp, "-o", "/dev/full")):
    with open("/dev/full", "w") as full:
        p = subprocess.run([SONDE, *args], stdout=full, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 1 and "write failed: No space left on device" in p.stderr,
          f"sonde {' '.join(args)} > /dev/full: exit {p.returncode}: {p.stderr}")
# A directory: a file that is not a trace and a subdirectory named x.sonde
# are skipped with a warning each; the rest is read.
mixed = tempfile.mkdtemp(prefix="sonde-mixed-")
open(os.path.join(mixed, "a.sonde"), "wb").write(open(trace_file, "rb").read())
open(os.path.join(mixed, "b.sonde"), "w").write("not a trace")
os.makedirs(os.path.join(mixed, "x.sonde"))
p = run("summary", mixed, "--json")
check(len(json.loads(p.stdout or "{}").get("processes", [])) == 1, "the trace of a mixed directory is read")
check("b.sonde: not a sonde trace" in p.stderr and "skipped" in p.stderr and
      "x.sonde: not a regular file; skipped" in p.stderr and p.stderr.count("sonde: warning: ") == 2,
      f"the two others are skipped with a warning each: {p.stderr}")
only_junk = tempfile.mkdtemp(prefix="sonde-junk-")
open(os.path.join(only_junk, "b.sonde"), "w").write("not a trace")
p = run("summary", only_junk, code=1)
check("no readable trace" in p.stderr, f"a directory of no trace is an error: {p.stderr}")
p = run("summary", os.path.join(mixed, "b.sonde"), code=1)
check("not a sonde trace" in p.stderr, "a non-trace file named on the command line is an error")
# An unreadable directory is said to be one, with the errno (as a user
# without the permission: root reads any directory).
locked_parent = tempfile.mkdtemp(prefix="sonde-locked-")
os.chmod(locked_parent, 0o755)
locked = os.path.join(locked_parent, "traces")
os.makedirs(locked)
open(os.path.join(locked, "a.sonde"), "wb").write(open(trace_file, "rb").read())
os.chmod(locked, 0)
as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
p = subprocess.run([*as_user, SONDE, "summary", locked], capture_output=True, text=True)
check(p.returncode == 1 and f"{locked}: cannot read this directory: Permission denied" in p.stderr,
      f"an unreadable directory: exit {p.returncode}: {p.stderr}")
os.chmod(locked, 0o755)

print(f"{checks - len(failures)} checks passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
