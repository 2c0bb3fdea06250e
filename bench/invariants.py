#!/usr/bin/env python3
"""`sonde infer` and `sonde check` on traces of the MNIST example.

  bench/invariants.py BUILD [OUT.json] [--rounds N]

Records 10 traces of BUILD/examples/mnist-bugs (seeds 1..10, no bug; the
probes of examples/mnist/probes-invariants.yaml), then, N rounds (default
5), side by side in each round:
  - `sonde infer` over the 10 traces (issue 17: under 10 s);
  - `sonde check` of the 10 traces repeated 30 times against what infer
    learned, and the same reading against an invariants file with none
    (what reading and the scope tracking cost without any check).
Prints medians: infer seconds, check records/s end to end, and check
records/s for the checking alone (records / (check - read)); their CPU
times (user + sys of the child), which load on the machine disturbs less
than wall time. OUT.json (a scripts/bench part) gets the figures.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_run(cmd, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r, cpu, wall


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--rounds")]
    rounds = 5
    for a in sys.argv[1:]:
        if a.startswith("--rounds="):
            rounds = int(a.split("=", 1)[1])
    if not args:
        sys.exit(__doc__)
    build = os.path.abspath(args[0])
    out = args[1] if len(args) > 1 else None
    sonde = os.path.join(build, "runtime", "sonde")
    program = os.path.join(build, "examples", "mnist-bugs")
    data = os.path.join(build, "examples", "mnist-data")
    for p in (sonde, program):
        if not os.access(p, os.X_OK):
            sys.exit("bench/invariants.py: %s is not built" % p)

    with tempfile.TemporaryDirectory(prefix="sonde-inv-bench-") as tmp:
        traces = []
        for seed in range(1, 11):
            d = os.path.join(tmp, "run%d" % seed)
            os.makedirs(d)
            r = subprocess.run([program, data, "--checkpoint", "", "--seed",
                                str(seed)], stdout=subprocess.DEVNULL,
                               env=dict(os.environ, SONDE_OUTPUT=d))
            if r.returncode:
                sys.exit("mnist-bugs failed (%d)" % r.returncode)
            traces.append(d)
        inv = os.path.join(tmp, "inv.yaml")
        empty = os.path.join(tmp, "empty.yaml")
        with open(empty, "w") as f:
            f.write("version: 1\ninvariants: []\n")
        many = traces * 30

        infer_cpu, infer_wall, check_cpu, read_cpu = [], [], [], []
        records = 0
        for _ in range(rounds):
            r, cpu, wall = cpu_run([sonde, "infer"] + traces + ["-o", inv])
            if r.returncode:
                sys.exit("sonde infer failed: " + r.stderr)
            infer_cpu.append(cpu)
            infer_wall.append(wall)
            r, cpu, _ = cpu_run([sonde, "check", "--json", "--invariants",
                                 inv] + many)
            if r.returncode not in (0, 1):
                sys.exit("sonde check failed: " + r.stderr)
            records = json.loads(r.stdout)["records"]
            check_cpu.append(cpu)
            r, cpu, _ = cpu_run([sonde, "check", "--json", "--invariants",
                                 empty] + many)
            read_cpu.append(cpu)

    n = sum(1 for line in open(inv) if line.startswith("  - family: ")) \
        if os.path.exists(inv) else 0
    med = statistics.median
    check_only = [c - r for c, r in zip(check_cpu, read_cpu)]
    fig = {
        "invariants.infer_10_traces_s": med(infer_wall),
        "invariants.infer_10_traces_cpu_s": med(infer_cpu),
        "invariants.check_records": records,
        "invariants.check_records_per_s": records / med(check_cpu),
        "invariants.read_records_per_s": records / med(read_cpu),
        "invariants.check_only_records_per_s":
            records / med(check_only) if med(check_only) > 0 else None,
        "invariants.check_vs_read_ratio": med(
            [c / r for c, r in zip(check_cpu, read_cpu)]),
    }
    for k, v in fig.items():
        print("%-40s %s" % (k, "%.4g" % v if isinstance(v, float) else v))
    if out:
        with open(out, "w") as f:
            json.dump(fig, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
