#!/usr/bin/env python3
"""The `sonde` trace tool on traces of any length (issue 14):

  bench/trace-tool.py BUILD PARTS/trace.json

One 1e8-record trace made by the throughput benchmark: `sonde summary`
(3 runs, median) and `sonde export --format chrome|jsonl` (one run each,
written to /dev/null) in M records/s of wall time and of CPU time (the
machine is shared: CPU time says what the tool costs, wall time what a user
waits), with each run's peak RSS. Then 64 files of 1e6 records merged into
one Chrome trace: wall seconds and peak RSS.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BUILD, OUT = sys.argv[1], sys.argv[2]
SONDE = os.path.join(BUILD, "runtime", "sonde")
THROUGHPUT = os.path.join(BUILD, "bench", "throughput-bench")
RECORDS = 100_000_000


def make(dir_, n):
    """A trace of n scalar watches (+1: the benchmark's first record)."""
    os.makedirs(dir_, exist_ok=True)
    p = subprocess.run([THROUGHPUT, str(n)], env={**os.environ, "SONDE_OUTPUT": dir_},
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["trace"]


def run(args):
    """Wall seconds, CPU seconds and peak RSS (MiB) of one sonde command."""
    t0 = time.monotonic()
    p = subprocess.Popen([SONDE] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: sonde {' '.join(args)} failed: {err}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main():
    fig = {}
    with tempfile.TemporaryDirectory(prefix="sonde-trace-bench.") as tmp:
        print("bench: trace tool: making a 1e8-record trace", file=sys.stderr)
        trace = make(os.path.join(tmp, "big"), RECORDS)
        n = RECORDS + 1
        fig["trace.file_mib"] = os.path.getsize(trace) / 2**20
        runs = [run(["summary", trace]) for _ in range(3)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        fig["trace.summary_mrec_s"] = n / wall / 1e6
        fig["trace.summary_cpu_mrec_s"] = n / cpu / 1e6
        fig["trace.summary_peak_mib"] = max(r[2] for r in runs)
        for fmt in ("chrome", "jsonl"):
            print(f"bench: trace tool: export {fmt}", file=sys.stderr)
            w, c, m = run(["export", "--format", fmt, trace, "-o", "/dev/null"])
            fig[f"trace.export_{fmt}_mrec_s"] = n / w / 1e6
            fig[f"trace.export_{fmt}_cpu_mrec_s"] = n / c / 1e6
            fig[f"trace.export_{fmt}_peak_mib"] = m
        # The report walks its traces two and a half times (docs/exports.md,
        # "report"); its memory is bounded as the others' is.
        print("bench: trace tool: report", file=sys.stderr)
        w, c, m = run(["report", trace, "-o", os.path.join(tmp, "r.html")])
        fig["trace.report_mrec_s"] = n / w / 1e6
        fig["trace.report_peak_mib"] = m
        fig["trace.report_kib"] = os.path.getsize(os.path.join(tmp, "r.html")) / 1024
        os.remove(trace)
        print("bench: trace tool: merging 64 files of 1e6 records", file=sys.stderr)
        ranks = os.path.join(tmp, "ranks")
        for _ in range(64):
            make(ranks, 1_000_000)
        w, c, m = run(["merge", ranks, "--format", "chrome", "-o", "/dev/null"])
        fig["trace.merge_64x1m_s"] = w
        fig["trace.merge_64x1m_cpu_s"] = c
        fig["trace.merge_64x1m_peak_mib"] = m
    json.dump(fig, open(OUT, "w"), indent=1)
    for k, v in fig.items():
        print(f"  {k:32} {v:10.2f}", file=sys.stderr)


main()
