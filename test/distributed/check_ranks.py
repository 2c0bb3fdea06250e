#!/usr/bin/env python3
"""The ranks side by side, and on one timeline across simulated hosts:
examples/distributed on 4 ranks (scripts/sonde-launch), rank 2 a straggler
(its data loader sleeps --slow-ms per batch), ranks 1 and 3 on simulated
hosts whose clocks read 7 s ahead and 2.5 s behind
(SONDE_TEST_CLOCK_OFFSET).

  - `sonde summary` (text and --json) and `sonde report` name rank 2 as the
    slowest, with every rank's steps;
  - `sonde merge` places ranks 1 and 3 by their clock exchange with rank 0
    and states each one's uncertainty; in the merged timeline every
    all-reduce, as Gloo ran it, starts on every rank no later than it ends
    on every other, within the two ranks' stated uncertainties (an
    all-reduce cannot end anywhere before it began everywhere);
  - the files' own wall clocks break that rule (the check can fail);
  - the merged Chrome file has a process track per rank named by its rank,
    the DFTracer file each rank's rank, local rank and world size.

Load-proof: the straggler sleeps 1.2 s a batch, far more than a batch of 32
images takes a busy machine, and only the rank's name is checked; the
timeline check is a causal bound, true however slow the machine; the port
is the kernel's pick.
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from checks import check, done  # noqa: E402

RANKS = 4
SAMPLES = 512
BATCH = 32
SLOW_RANK = 2
SLOW_MS = 1200
OFFSETS = {1: 7_000_000_000, 3: -2_500_000_000}
TIMEOUT_S = 900
SLACK_NS = 10_000  # the clock line's rounding, far below the offsets


def run(args, tmp):
    traces = os.path.join(tmp, "traces")
    os.makedirs(traces)
    env = dict(os.environ, SONDE_OUTPUT=traces,
               SONDE_TEST_CLOCK_OFFSET=",".join(f"{r}:{o}" for r, o in OFFSETS.items()))
    for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
              "SLURM_PROCID", "MASTER_PORT", "SONDE_CLOCK_SYNC"):
        env.pop(k, None)
    cmd = [args.launch, "-n", str(RANKS), "--timeout", str(TIMEOUT_S), "--", args.instrumented,
           args.data, "--epochs", "1", "--train-samples", str(SAMPLES), "--batch-size", str(BATCH),
           "--bucket-kb", "32", "--slow-rank", str(SLOW_RANK), "--slow-ms", str(SLOW_MS),
           "--checkpoint", os.path.join(tmp, "model.pt")]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp, timeout=TIMEOUT_S + 60)
    check(p.returncode == 0, f"the job exits 0 (got {p.returncode}; stderr: {p.stderr[-2000:]})")
    check("clock exchange" not in p.stderr, f"no clock exchange failed ({p.stderr[-2000:]})")
    files = glob.glob(os.path.join(traces, "*.sonde"))
    check(len(files) == RANKS, f"one trace per rank ({files})")
    return traces


def sonde(args, *argv):
    p = subprocess.run([args.sonde, *argv], capture_output=True, text=True)
    check(p.returncode == 0, f"sonde {' '.join(argv)}: exit 0 ({p.stderr[-1000:]})")
    return p


def check_straggler(args, traces, tmp):
    batches = math.ceil(SAMPLES / RANKS / BATCH)
    s = json.loads(sonde(args, "summary", "--json", traces).stdout)
    ranks = s.get("ranks") or {}
    check(ranks.get("slowest_rank") == SLOW_RANK,
          f"summary --json names rank {SLOW_RANK} the slowest ({ranks.get('slowest_rank')})")
    check(ranks.get("step") == "dataloader.fetch/fetch.block", f"the step is the batch loop ({ranks.get('step')})")
    rows = ranks.get("rows", [])
    check([r["rank"] for r in rows] == list(range(RANKS)), f"a row per rank ({rows})")
    check(all(r["steps"] == batches for r in rows), f"{batches} steps on every rank ({rows})")
    check(all(r["wait_ns"] is not None and r["compute_ns"] > 0 and r["comm_ns"] > 0 for r in rows),
          f"every rank computed, communicated and waited ({rows})")
    text = sonde(args, "summary", traces).stdout
    check(re.search(rf"^  slowest rank: {SLOW_RANK} \(busy ", text, re.M) is not None,
          f"summary says the slowest rank ({text[:3000]})")
    html = os.path.join(tmp, "report.html")
    sonde(args, "report", traces, "-o", html)
    page = open(html, encoding="utf-8").read()
    check(f'"slowest_rank":{SLOW_RANK},' in page, "the report's data names the slowest rank")


def allreduces(records, times):
    """Per rank, its gloo:all_reduce regions as (start, end) in order."""
    by_rank = collections.defaultdict(list)
    for r in records:
        if r.get("kind") == "region" and r.get("name") == "gloo:all_reduce":
            by_rank[r["rank"]].append(times(r))
    return {k: sorted(v) for k, v in by_rank.items()}


def violations(spans, unc):
    """(k, i, j, excess): collective k starting on rank i after it ended on
    rank j by more than their uncertainties."""
    out = []
    n = min(len(v) for v in spans.values())
    for k in range(n):
        for i in spans:
            for j in spans:
                excess = spans[i][k][0] - spans[j][k][1] - unc[i] - unc[j] - SLACK_NS
                if i != j and excess > 0:
                    out.append((k, i, j, excess))
    return out


def check_timeline(args, traces, tmp):
    merged = os.path.join(tmp, "merged.jsonl")
    p = sonde(args, "merge", traces, "-o", merged)
    unc = {r: 0 for r in range(RANKS)}
    for r in OFFSETS:
        m = re.search(rf"rank {r} pid \d+\): on another host than rank 0; its host placed by its "
                      rf"clock exchange with rank 0: its clock [0-9.]+ (m?s) (ahead|behind), within "
                      rf"\+-[^(]+\(uncertainty (\d+) ns\)", p.stderr)
        check(m is not None, f"merge places rank {r} by its clock exchange ({p.stderr[-3000:]})")
        if m:
            unc[r] = int(m.group(3))
            check(m.group(2) == ("ahead" if OFFSETS[r] > 0 else "behind"),
                  f"rank {r}'s clock is {m.group(2)} ({m.group(0)})")
            check(unc[r] < 1_000_000_000, f"rank {r}: an uncertainty under a second ({unc[r]} ns)")
    records = [json.loads(l) for l in open(merged, encoding="utf-8")]
    spans = allreduces(records, lambda r: (r["ts"], r["ts"] + r["dur"]))
    counts = {k: len(v) for k, v in spans.items()}
    check(sorted(counts) == list(range(RANKS)) and len(set(counts.values())) == 1,
          f"the same all-reduces on every rank ({counts})")
    bad = violations(spans, unc) if len(spans) == RANKS else ["no spans"]
    check(not bad, f"merged: every all-reduce within the stated uncertainties ({bad[:5]})")
    # Each file by its own wall clock, as a merge without the exchange would.
    raw = []
    for f in sorted(glob.glob(os.path.join(traces, "*.sonde"))):
        out = sonde(args, "export", f, "--format", "jsonl").stdout
        recs = [json.loads(l) for l in out.splitlines()]
        origin = int(next(r for r in recs if r.get("origin_unix_ns"))["origin_unix_ns"])
        for r in recs:
            if r.get("kind") == "region":
                r["abs"] = origin + r["ts"]
        raw += recs
    wall = allreduces(raw, lambda r: (r["abs"], r["abs"] + r["dur"]))
    wrong = violations(wall, unc) if len(wall) == RANKS else []
    check({(i, j) for _, i, j, _ in wrong} >= {(1, 0), (0, 3)},
          f"by the wall clocks, rank 1 runs ahead and rank 3 behind ({wrong[:5]})")


def check_exports(args, traces, tmp):
    """Each rank its own Perfetto process track, named by its rank; each
    rank's DFTracer metadata says where it stands in the job."""
    chrome = os.path.join(tmp, "job.json")
    sonde(args, "merge", traces, "-o", chrome)
    meta = [e for e in json.load(open(chrome))["traceEvents"] if e["ph"] == "M"]
    names = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    check(sorted(names.values()) == [f"dist_mnist-sonde (rank {r} of {RANKS})" for r in range(RANKS)],
          f"chrome: a process track per rank, named by its rank ({names})")
    pfw = os.path.join(tmp, "job.pfw")
    sonde(args, "merge", traces, "-o", pfw)
    facts = collections.defaultdict(dict)
    for line in open(pfw):
        if line.startswith("{"):
            e = json.loads(line)
            if e["name"] == "PR":
                facts[e["pid"]][e["args"]["name"]] = e["args"]["value"]
    check(sorted(f["rank"] for f in facts.values()) == list(range(RANKS))
          and all(f["world_size"] == RANKS and f["local_rank"] == f["rank"] for f in facts.values()),
          f"dftracer: each rank's PR lines: rank, local rank, world size ({dict(facts)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sonde", required=True)
    ap.add_argument("--instrumented", required=True)
    ap.add_argument("--launch", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    for a in ("sonde", "instrumented", "launch", "data"):
        setattr(args, a, os.path.abspath(getattr(args, a)))
    with tempfile.TemporaryDirectory(prefix="sonde-ranks-") as tmp:
        traces = run(args, tmp)
        check_straggler(args, traces, tmp)
        check_timeline(args, traces, tmp)
        check_exports(args, traces, tmp)
    done()


if __name__ == "__main__":
    main()
