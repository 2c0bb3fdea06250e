#!/usr/bin/env python3
"""`sonde infer` and `sonde check` on traces of the example programs.

  bench/invariants.py BUILD [OUT.json] [--rounds=N] [--base=SONDE]

For each workload, records 10 traces (seeds 1..10): `mnist`, the MNIST
example as mnist-bugs without a bug (examples/mnist/probes-invariants.yaml:
a third of its records are model state records of a dozen fields), and
`plain`, the dependency-free trainer (plain/probes.yaml: mostly regions).
Then N rounds (default 5), side by side in each round:
  - `sonde infer` over the 10 traces (issue 17: under 10 s);
  - `sonde check` of the 10 traces (repeated, to about 0.9 M records)
    against what infer learned, and the same reading against an invariants
    file with none (what reading and the scope tracking cost without any
    check).
  - bench/invariants-bench (when built) over the same traces in one
    process, side by side: each trace streamed without and with a Checker,
    so the checking alone is measured on values just decoded, as in
    `sonde check`.
Then `mnist_long`: one run of the MNIST example for LONG_EPOCHS epochs, a
single trace of about 59,000 records inside one `train` region (the reader
holds all of them until that region's record, at the file's end, so the
check cannot start before the reading ends and one file is one core's
work), checked against what infer learned from the short runs.
With --base=SONDE (another build's runtime/sonde, e.g. main's), each
round also runs that `sonde check` on the same traces and invariants,
alternating with this build's, and prints its records/s and the ratio of
the two (median of the rounds' ratios): on a loaded machine the ratio moves
less than either figure.
Prints medians: infer seconds, check records/s end to end, and check
records/s for the checking alone; CPU times (user + sys of the child),
which load on the machine disturbs less than wall time. OUT.json (a
scripts/bench part) gets the figures, invariants.<workload>_<figure>, and
the headline ones of the mnist workload: invariants.check_mrec_s (end to
end), invariants.check_only_mrec_s (the checking alone) and
invariants.infer_10_traces_s.
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


WORKLOADS = {
    # name: (program, extra args, repeats of the 10 traces for check)
    "mnist": ("mnist-bugs", ["{data}", "--checkpoint", ""], 30),
    "plain": ("plain-sonde", ["--checkpoint", ""], 2),
}


def measure(build, name, rounds, tmp, base=None):
    sonde = os.path.join(build, "runtime", "sonde")
    prog, extra, repeats = WORKLOADS[name]
    program = os.path.join(build, "examples", prog)
    data = os.path.join(build, "examples", "mnist-data")
    if not os.access(program, os.X_OK):
        why = "%s is not built (it needs libtorch and the plugin)" % program
        print("bench/invariants.py: %s not measured: %s" % (name, why),
              file=sys.stderr)
        return {"not_measured": {"invariants.%s_*" % name: why}}
    traces = []
    for seed in range(1, 11):
        d = os.path.join(tmp, "%s%d" % (name, seed))
        os.makedirs(d)
        cmd = [program] + [a.format(data=data) for a in extra] + [
            "--seed", str(seed)]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, cwd=d,
                           env=dict(os.environ, SONDE_OUTPUT=d))
        if r.returncode:
            sys.exit("%s failed (%d)" % (prog, r.returncode))
        traces.append(d)
    inv = os.path.join(tmp, name + "-inv.yaml")
    empty = os.path.join(tmp, "empty.yaml")
    with open(empty, "w") as f:
        f.write("version: 1\ninvariants: []\n")
    many = traces * repeats

    infer_cpu, infer_wall, check_cpu, read_cpu, base_cpu = [], [], [], [], []
    check_wall = []
    records = invariants = 0
    for _ in range(rounds):
        r, cpu, wall = cpu_run([sonde, "infer"] + traces + ["-o", inv])
        if r.returncode:
            sys.exit("sonde infer failed: " + r.stderr)
        infer_cpu.append(cpu)
        infer_wall.append(wall)
        r, cpu, wall = cpu_run([sonde, "check", "--json", "--invariants",
                                inv] + many)
        check_wall.append(wall)
        if r.returncode not in (0, 1):
            sys.exit("sonde check failed: " + r.stderr)
        report = json.loads(r.stdout)
        records, invariants = report["records"], report["invariants"]
        check_cpu.append(cpu)
        r, cpu, _ = cpu_run([sonde, "check", "--json", "--invariants", empty]
                            + many)
        read_cpu.append(cpu)
        if base:
            r, cpu, _ = cpu_run([base, "check", "--json", "--invariants", inv]
                                + many)
            if r.returncode not in (0, 1):
                sys.exit("base sonde check failed: " + r.stderr)
            if json.loads(r.stdout)["records"] != records:
                sys.exit("base sonde check read another number of records")
            base_cpu.append(cpu)

    med = statistics.median
    only = med([c - r for c, r in zip(check_cpu, read_cpu)])
    k = "invariants.%s_" % name
    inproc = {}
    bench = os.path.join(build, "bench", "invariants-bench")
    if os.access(bench, os.X_OK):
        r = subprocess.run([bench, inv, str(rounds)] + files_of(many),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode:
            sys.exit("invariants-bench failed: " + r.stderr)
        b = json.loads(r.stdout)
        inproc = {
            k + "inproc_read_mrec_s": b["read_mrec_s"],
            k + "inproc_check_mrec_s": b["check_mrec_s"],
            k + "inproc_check_only_mrec_s": b["check_only_mrec_s"],
        }
    else:
        why = "%s is not built (Google Benchmark's directory)" % bench
        print("bench/invariants.py: no in-process figures: " + why,
              file=sys.stderr)
        inproc = {"not_measured": {k + "inproc_*": why}}
    if base_cpu:
        inproc[k + "base_check_records_per_s"] = records / med(base_cpu)
        inproc[k + "check_vs_base_speedup"] = med(
            [b / c for b, c in zip(base_cpu, check_cpu)])
    return {
        k + "infer_10_traces_s": med(infer_wall),
        k + "infer_10_traces_cpu_s": med(infer_cpu),
        k + "invariants": invariants,
        k + "check_records": records,
        k + "check_records_per_s": records / med(check_cpu),
        k + "read_records_per_s": records / med(read_cpu),
        k + "check_only_records_per_s": records / only if only > 0 else None,
        k + "check_vs_read_ratio": med(
            [c / r for c, r in zip(check_cpu, read_cpu)]),
        k + "check_wall_records_per_s": records / med(check_wall),
        **inproc,
    }


LONG_EPOCHS = 40


def measure_long(build, rounds, tmp, base=None):
    """`sonde check` of one long trace, against mnist's invariants."""
    sonde = os.path.join(build, "runtime", "sonde")
    program = os.path.join(build, "examples", "mnist-bugs")
    inv = os.path.join(tmp, "mnist-inv.yaml")
    if not os.access(program, os.X_OK) or not os.path.exists(inv):
        return {}  # the mnist workload said why
    d = os.path.join(tmp, "mnist-long")
    os.makedirs(d)
    data = os.path.join(build, "examples", "mnist-data")
    r = subprocess.run([program, data, "--checkpoint", "", "--seed", "11",
                        "--epochs", str(LONG_EPOCHS)],
                       stdout=subprocess.DEVNULL, cwd=d,
                       env=dict(os.environ, SONDE_OUTPUT=d))
    if r.returncode:
        sys.exit("mnist-bugs --epochs %d failed (%d)" % (LONG_EPOCHS,
                                                          r.returncode))
    cpu_of, wall_of = {sonde: [], base: []}, {sonde: [], base: []}
    records = 0
    for _ in range(rounds * 3):
        for exe in [sonde] + ([base] if base else []):
            r, cpu, wall = cpu_run([exe, "check", "--json", "--invariants",
                                    inv, d])
            if r.returncode not in (0, 1):
                sys.exit("sonde check of the long trace failed: " + r.stderr)
            records = json.loads(r.stdout)["records"]
            cpu_of[exe].append(cpu)
            wall_of[exe].append(wall)
    med = statistics.median
    k = "invariants.mnist_long_"
    out = {
        k + "records": records,
        k + "check_records_per_s": records / med(cpu_of[sonde]),
        k + "check_wall_records_per_s": records / med(wall_of[sonde]),
    }
    if base:
        out[k + "base_check_records_per_s"] = records / med(cpu_of[base])
        out[k + "check_vs_base_speedup"] = med(
            [b / c for b, c in zip(cpu_of[base], cpu_of[sonde])])
    return out


def files_of(dirs):
    """The trace files of the run directories, in order."""
    out = []
    for d in dirs:
        out += sorted(os.path.join(d, f) for f in os.listdir(d)
                      if f.endswith(".sonde"))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds, base = 5, None
    for a in sys.argv[1:]:
        if a.startswith("--rounds="):
            rounds = int(a.split("=", 1)[1])
        elif a.startswith("--base="):
            base = os.path.abspath(a.split("=", 1)[1])
            if not os.access(base, os.X_OK):
                sys.exit("bench/invariants.py: %s is not executable" % base)
        elif a.startswith("--"):
            sys.exit("bench/invariants.py: unknown option " + a)
    if not args:
        sys.exit(__doc__)
    build = os.path.abspath(args[0])
    out = args[1] if len(args) > 1 else None
    if not os.access(os.path.join(build, "runtime", "sonde"), os.X_OK):
        sys.exit("bench/invariants.py: %s/runtime/sonde is not built" % build)
    fig, missing = {}, {}
    with tempfile.TemporaryDirectory(prefix="sonde-inv-bench-") as tmp:
        for name in WORKLOADS:
            part = measure(build, name, rounds, tmp, base)
            missing.update(part.pop("not_measured", {}))
            fig.update(part)
        fig.update(measure_long(build, rounds, tmp, base))
    # The headline figures (issue 17): the value-heavy MNIST workload.
    for head, part in (("check_mrec_s", "check_records_per_s"),
                       ("check_only_mrec_s", "inproc_check_only_mrec_s"),
                       ("infer_10_traces_s", "infer_10_traces_s")):
        v = fig.get("invariants.mnist_" + part)
        if v is not None:
            fig["invariants." + head] = v / 1e6 if "records" in part else v
    for k, v in fig.items():
        print("%-46s %s" % (k, "%.4g" % v if isinstance(v, float) else v))
    for k, why in missing.items():
        print("%-46s not measured: %s" % (k, why))
    if out:
        with open(out, "w") as f:
            json.dump(dict(fig, not_measured=missing) if missing else fig, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
