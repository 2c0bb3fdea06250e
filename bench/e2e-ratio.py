#!/usr/bin/env python3
"""e2e.<example>_ratio: instrumented / uninstrumented wall time of an example
training run, with its full probe spec and the same compile flags; PAIRS
alternating pairs (the order flips each pair), median of the per-pair ratios.

  e2e-ratio.py NAME PLAIN INSTRUMENTED PAIRS OUT.json [ARGS...]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

name, plain, inst, pairs, out = sys.argv[1:6]
plain, inst = os.path.abspath(plain), os.path.abspath(inst)
args = [os.path.abspath(a) if os.path.exists(a) else a for a in sys.argv[6:]]
tmp = tempfile.mkdtemp(prefix=f"sonde-e2e-{name}-")
env = dict(os.environ, SONDE_OUTPUT=os.path.join(tmp, "traces"))
args = [a.replace("{tmp}", tmp) for a in args]


def timed(binary):
    t0 = time.perf_counter()
    subprocess.run([binary, *args], cwd=tmp, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


timed(plain), timed(inst)  # warm the page cache and the data files
ratios, base, instr = [], [], []
for i in range(int(pairs)):
    if i % 2:
        b, s = timed(plain), timed(inst)
    else:
        s, b = timed(inst), timed(plain)
    base.append(b)
    instr.append(s)
    ratios.append(s / b)
res = {f"e2e.{name}_ratio": statistics.median(ratios),
       f"e2e.{name}_plain_s": statistics.median(base),
       f"e2e.{name}_instrumented_s": statistics.median(instr)}
json.dump(res, open(out, "w"), indent=1)
print(json.dumps(res))
