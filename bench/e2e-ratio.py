#!/usr/bin/env python3
"""e2e.<example>_ratio: instrumented / uninstrumented wall time of an example
training run, with its full probe spec and the same compile flags; PAIRS
alternating pairs (the order flips each pair), median of the per-pair ratios.

  e2e-ratio.py NAME PLAIN INSTRUMENTED PAIRS OUT.json [OPTIONS] [ARGS...]

OPTIONS (before ARGS): --env=K=V sets K=V for the instrumented runs only
(e.g. LD_PRELOAD and SONDE_TORCH_OPS=1 on the plain binary); --key=K names
the figures K_ratio, K_plain_s, K_instrumented_s instead of e2e.NAME_...
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

name, plain, inst, pairs, out = sys.argv[1:6]
plain, inst = os.path.abspath(plain), os.path.abspath(inst)
rest = sys.argv[6:]
inst_env, key = {}, f"e2e.{name}"
while rest and (rest[0].startswith("--env=") or rest[0].startswith("--key=")):
    opt = rest.pop(0)
    if opt.startswith("--env="):
        k, _, v = opt[len("--env="):].partition("=")
        inst_env[k] = v
    else:
        key = opt[len("--key="):]
args = [os.path.abspath(a) if os.path.exists(a) else a for a in rest]
tmp = tempfile.mkdtemp(prefix=f"sonde-e2e-{name}-")
env = dict(os.environ, SONDE_OUTPUT=os.path.join(tmp, "traces"))
args = [a.replace("{tmp}", tmp) for a in args]


def timed(binary, instrumented):
    # The same binary may be on both sides (an LD_PRELOAD run): the side
    # decides the environment.
    run_env = dict(env, **inst_env) if instrumented else env
    t0 = time.perf_counter()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, *args], cwd=tmp, env=run_env, stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return time.perf_counter() - t0


def timed_plain():
    return timed(plain, False)


def timed_inst():
    return timed(inst, True)


cpu = []  # CPU seconds (user + sys) of each run, in order
timed_plain(), timed_inst()  # warm the page cache and the data files
ratios, base, instr, cpu_ratios = [], [], [], []
for i in range(int(pairs)):
    if i % 2:
        b, s = timed_plain(), timed_inst()
    else:
        s, b = timed_inst(), timed_plain()
    base.append(b)
    instr.append(s)
    ratios.append(s / b)
    c_first, c_second = cpu[-2], cpu[-1]
    cpu_ratios.append(c_second / c_first if i % 2 else c_first / c_second)
res = {f"{key}_ratio": statistics.median(ratios),
       f"{key}_plain_s": statistics.median(base),
       f"{key}_instrumented_s": statistics.median(instr),
       # The same pairs in CPU time: steadier than wall time on a shared
       # machine (the writer thread's CPU counts too).
       f"{key}_cpu_ratio": statistics.median(cpu_ratios)}
json.dump(res, open(out, "w"), indent=1)
print(json.dumps(res))
