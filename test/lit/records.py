#!/usr/bin/env python3
"""Prints the records of `sonde export --format jsonl` (read from stdin)
one per line without what changes between runs (times, durations, pids,
site ids), so that FileCheck can check them exactly:

  region compute/forward level=1 iter=0 line=5 func=Net::forward args={...}
"""
import json
import sys

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)
    kind = r.get("kind")
    if kind == "process":
        continue
    out = [kind, "%s/%s" % (r.get("cat", ""), r.get("name", ""))]
    for key in ("level", "iter", "phase", "call", "value", "call_args", "ret"):
        if key in r:
            out.append("%s=%s" % (key, json.dumps(r[key], sort_keys=True)))
    out.append("line=%s" % r.get("line"))
    out.append("func=%s" % r.get("func"))
    if r.get("args"):
        out.append("args=%s" % json.dumps(r["args"], sort_keys=True))
    print(" ".join(out))
