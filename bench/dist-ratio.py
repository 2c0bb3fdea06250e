#!/usr/bin/env python3
"""e2e.dist_ratio: instrumented / plain wall time of the data-parallel
example (examples/distributed) on RANKS ranks of c10d's Gloo group, each
launched by scripts/sonde-launch on a free port; PAIRS alternating pairs
(the order flips each pair), median of the per-pair ratios.

  dist-ratio.py BUILD_DIR PAIRS OUT.json [RANKS]

The whole job's wall time is measured (the launch, the store's rendezvous,
training, the checkpoint and the last barrier), as a user waits for it.

The job trains EPOCHS (4) epochs of 500 images a rank, 32 steps, not the
example's one epoch: a real run lasts minutes, and one epoch (8 steps) is
mostly the start of 4 libtorch processes (loading libtorch alone costs a
process 0.75 to 0.9 s of CPU, some 70 % of a one-epoch job's CPU time on
this machine), so its ratio measured the start, not what sonde adds to a
training run. Each step's records are in every epoch; the start and end
costs (libsonde's writer thread and file, the clock exchange, the last
flush) are in the job once, as in a real run (docs/distributed.md).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

build, pairs, out = sys.argv[1:4]
build = os.path.abspath(build)
ranks = sys.argv[4] if len(sys.argv) > 4 else "4"
EPOCHS = "4"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
launch = os.path.join(root, "scripts", "sonde-launch")
plain = os.path.join(build, "examples", "dist_mnist")
inst = os.path.join(build, "examples", "dist_mnist-sonde")
data = os.path.join(build, "examples", "mnist-data")
tmp = tempfile.mkdtemp(prefix="sonde-dist-bench-")
env = dict(os.environ, SONDE_OUTPUT=os.path.join(tmp, "traces"))


def timed(prog):
    t0 = time.perf_counter()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([launch, "-n", ranks, "--timeout", "900", "--", prog, data,
                    "--bucket-kb", "32", "--epochs", EPOCHS, "--checkpoint", os.path.join(tmp, "model.pt")],
                   cwd=tmp, env=env, stdout=subprocess.DEVNULL, check=True)
    # The launcher waits for its ranks: their CPU time is in its children's.
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return time.perf_counter() - t0


cpu = []  # CPU seconds (user + sys) of each job, every rank, in order


timed(plain), timed(inst)  # warm the page cache
ratios, base, instr, cpu_ratios = [], [], [], []
for i in range(int(pairs)):
    if i % 2:
        b, s = timed(plain), timed(inst)
    else:
        s, b = timed(inst), timed(plain)
    base.append(b)
    instr.append(s)
    ratios.append(s / b)
    c_first, c_second = cpu[-2], cpu[-1]
    cpu_ratios.append(c_second / c_first if i % 2 else c_first / c_second)
res = {"e2e.dist_ratio": statistics.median(ratios),
       "e2e.dist_plain_s": statistics.median(base),
       "e2e.dist_instrumented_s": statistics.median(instr),
       # The same pairs in CPU time of all ranks: steadier on a shared machine.
       "e2e.dist_cpu_ratio": statistics.median(cpu_ratios),
       "e2e.dist_pairs": len(ratios)}
# Each pair on stderr: the spread says how far the machine's load moved
# the figure.
for r, c in zip(ratios, cpu_ratios):
    print(f"dist-ratio: pair wall {r:.3f} cpu {c:.3f}", file=sys.stderr)
json.dump(res, open(out, "w"), indent=1)
print(json.dumps(res))
