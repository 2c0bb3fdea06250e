#!/usr/bin/env python3
"""live.latency_ms: how long after a record is made `sonde live --jsonl`
prints it, median over every record of a run (issue 16).

  live-latency.py SONDE LIVE_STEPS OUT.json [STEPS] [PERIOD_MS]

LIVE_STEPS (test/live/LiveSteps.cpp) records a step (a region, two nested
regions and a loss watch) every PERIOD_MS (default 100): a slow producer,
whose records the writer's lag would otherwise keep in its ring; the writer
runs with its default SONDE_FLUSH_DELAY. `sonde live --jsonl` follows the
trace directory; each line's arrival time (read here as it comes, on the
same host clock) less the time its record was made (a watch's time, a
region's end: origin_unix_ns + ts (+ dur)) is its delay.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sonde, steps_bin, out = sys.argv[1:4]
steps = sys.argv[4] if len(sys.argv) > 4 else "60"
period = sys.argv[5] if len(sys.argv) > 5 else "100"
tmp = tempfile.mkdtemp(prefix="sonde-live-latency-")
traces = os.path.join(tmp, "traces")
live = subprocess.Popen([sonde, "live", "--jsonl", traces],
                        stdout=subprocess.PIPE, text=True, bufsize=1)
prog = subprocess.Popen([steps_bin, steps, "--period-ms", period],
                        env=dict(os.environ, SONDE_OUTPUT=traces),
                        stdout=subprocess.DEVNULL)
delays, origin = [], None
try:
    for line in live.stdout:
        now = time.time_ns()
        rec = json.loads(line)
        if rec["kind"] == "process":
            if rec["event"] == "start":
                origin = int(rec["origin_unix_ns"])
            continue
        made = origin + rec["ts"] + rec.get("dur", 0)
        delays.append((now - made) / 1e6)
finally:
    prog.wait(timeout=600)
    live.wait(timeout=600)
if prog.returncode or live.returncode or not delays:
    sys.exit(f"live-latency: program {prog.returncode}, sonde live "
             f"{live.returncode}, {len(delays)} records")
res = {"live.latency_ms": statistics.median(delays),
       "live.latency_p99_ms": sorted(delays)[int(0.99 * (len(delays) - 1))],
       "live.latency_records": len(delays)}
json.dump(res, open(out, "w"), indent=1)
print(json.dumps(res))
