#!/usr/bin/env python3
"""torch.op_ns_*: sonde's op tracing against libtorch 1.13's own profiler.

  torch-profiler.py BUILD OUT.json [--rounds=N] [--ops=N] [--workloads=micro,mnist]

Two workloads, each run plain and traced every way, in rounds (each round
runs every way once, the order rotated from round to round, so that no way
always runs first or after the same neighbour):

  micro  BUILD/bench/torch-ops-bench OPS: OPS `at::add` of 16-element
         tensors (bench/TorchOpsBench.cpp); it links libsonde_torch
  mnist  BUILD/examples/mnist, the plain build (2 epochs of 4000 images)

and the ways:

  plain            nothing
  sonde            SONDE_TORCH_OPS=1 (LD_PRELOAD=libsonde_torch.so for mnist)
  sonde-shapes     SONDE_TORCH_OPS=shapes: and every op's input shapes
  profiler         LD_PRELOAD=libsonde-bench-profiler.so: libtorch's
                   RecordProfile from load to exit, its Chrome trace written
                   at exit (bench/ProfilerPreload.cpp)
  profiler-shapes  the same profiler with report_input_shapes
  kineto           (micro only) the Kineto-state profiler, collecting only:
                   Debian's libtorch has no Kineto, so it cannot write a trace

A run's cost is its CPU time (user + sys of every thread: sonde's writer
thread and the writing of the profiler's trace included; for micro, from
the start of its loop to its exit, which leaves out loading libtorch, the
same for every way and the noisiest part of a run); the added cost
per op of a way in a round is (its CPU - the round's plain CPU) / the ops
its own trace holds; the figure is the median over rounds. The same in wall
time is given as *_wall. Trace bytes per op: the trace's size on disk over
its ops.
"""
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build, out = sys.argv[1:3]
opts = dict(a[2:].split("=", 1) for a in sys.argv[3:] if a.startswith("--") and "=" in a)
rounds = int(opts.get("rounds", 5))
workloads = opts.get("workloads", "micro,mnist").split(",")
micro_ops = int(opts.get("ops", 1000000))
build = os.path.abspath(build)
sonde = os.path.join(build, "runtime", "sonde")
torchlib = os.path.join(build, "runtime", "libsonde_torch.so")
proflib = os.path.join(build, "bench", "libsonde-bench-profiler.so")
tmp = tempfile.mkdtemp(prefix="sonde-bench-torch-profiler-")


def run(argv, env_add):
    """CPU seconds (user + sys) and wall seconds of one run; from the start
    of its loop when the program says when that was (torch-ops-bench)."""
    env = dict(os.environ, **env_add)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(argv, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       check=True, text=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu, wall = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, t1 - t0
    said = json.loads(p.stdout) if p.stdout.startswith("{") else {}
    if "cpu_before_s" in said:  # both clocks are CLOCK_MONOTONIC
        cpu, wall = cpu - said["cpu_before_s"], t1 - said["monotonic_before_s"]
    return cpu, wall


def sonde_ops(trace_dir):
    """Op regions in a sonde trace (its own count, from `sonde summary`)."""
    p = subprocess.run([sonde, "summary", "--json", trace_dir], stdout=subprocess.PIPE,
                       check=True, text=True)
    n = sum(r["count"] for r in json.loads(p.stdout)["regions"]
            if r["category"].startswith("torch.op"))
    size = sum(os.path.getsize(os.path.join(trace_dir, f)) for f in os.listdir(trace_dir))
    return n, size


def profiler_ops(path):
    """Complete events ("ph": "X") in the profiler's Chrome trace."""
    n, pat = 0, re.compile(rb'"ph":\s*"X"')
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            n += len(pat.findall(chunk))  # an event's fields are on separate lines
    return n, os.path.getsize(path)


def ways(workload):
    preload_sonde = {"LD_PRELOAD": torchlib} if workload == "mnist" else {}
    trace = os.path.join(tmp, "profile.json")
    w = {
        "plain": {},
        "sonde": dict(preload_sonde, SONDE_TORCH_OPS="1"),
        "sonde-shapes": dict(preload_sonde, SONDE_TORCH_OPS="shapes"),
        "profiler": {"LD_PRELOAD": proflib, "SONDE_BENCH_PROFILER": "legacy",
                     "SONDE_BENCH_PROFILER_OUT": trace},
        "profiler-shapes": {"LD_PRELOAD": proflib, "SONDE_BENCH_PROFILER": "legacy-shapes",
                            "SONDE_BENCH_PROFILER_OUT": trace},
    }
    if workload == "micro":
        w["kineto"] = {"LD_PRELOAD": proflib, "SONDE_BENCH_PROFILER": "kineto"}
    return w


def measure(workload, argv):
    ws = ways(workload)
    names = list(ws)
    cpu = {n: [] for n in names}
    wall = {n: [] for n in names}
    ops, size = {}, {}
    for n in names:  # warm the page cache; count each trace's ops once
        env = dict(ws[n], SONDE_OUTPUT=os.path.join(tmp, "traces"))
        run(argv, env)
        if n.startswith("sonde"):
            ops[n], size[n] = sonde_ops(env["SONDE_OUTPUT"])
        elif n.startswith("profiler"):
            ops[n], size[n] = profiler_ops(env["SONDE_BENCH_PROFILER_OUT"])
        shutil.rmtree(env["SONDE_OUTPUT"], ignore_errors=True)
    ops["kineto"] = ops.get("profiler", 0)  # the same ops, collected in memory
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            env = dict(ws[n], SONDE_OUTPUT=os.path.join(tmp, "traces"))
            c, t = run(argv, env)
            cpu[n].append(c)
            wall[n].append(t)
            shutil.rmtree(env["SONDE_OUTPUT"], ignore_errors=True)
        print(f"bench: torch {workload} round {r + 1}/{rounds}: " +
              " ".join(f"{n}={cpu[n][-1]:.2f}s" for n in names), file=sys.stderr)

    def per_round(n, series):
        return [(series[n][i] - series["plain"][i]) / ops[n] * 1e9 for i in range(rounds)]

    def per_op(n, series):
        return statistics.median(per_round(n, series))

    def spread(n, series):
        """How far one round's figure strays: 1.4826 x the median absolute
        deviation (the standard deviation, were the noise normal)."""
        v = per_round(n, series)
        m = statistics.median(v)
        return 1.4826 * statistics.median(abs(x - m) for x in v)

    sfx = "" if workload == "micro" else "_mnist"
    fig = {
        f"torch.op_ns_sonde{sfx}": per_op("sonde", cpu),
        f"torch.op_ns_profiler{sfx}": per_op("profiler", cpu),
        f"torch.op_ns_sonde_shapes{sfx}": per_op("sonde-shapes", cpu),
        f"torch.op_ns_profiler_shapes{sfx}": per_op("profiler-shapes", cpu),
        f"torch.op_ns_sonde{sfx}_wall": per_op("sonde", wall),
        f"torch.op_ns_profiler{sfx}_wall": per_op("profiler", wall),
        f"torch.op_bytes_sonde{sfx}": size["sonde"] / ops["sonde"],
        f"torch.op_bytes_profiler{sfx}": size["profiler"] / ops["profiler"],
        f"torch.op_bytes_sonde_shapes{sfx}": size["sonde-shapes"] / ops["sonde-shapes"],
        f"torch.ops_sonde{sfx}": ops["sonde"],
        f"torch.ops_profiler{sfx}": ops["profiler"],
        f"torch.plain_cpu_s{sfx}": statistics.median(cpu["plain"]),
    }
    # The ratio of the two medians, when sonde's median stands above the
    # noise; else only its bound: the profiler's cost over sonde's median
    # plus one spread (a run of the mnist example, 2.5 s of CPU on a busy
    # machine, strays by more than sonde's 0.1 s).
    for way, key in (("sonde", "profiler_vs_sonde"), ("sonde-shapes", "profiler_vs_sonde_shapes")):
        s_ns, noise = per_op(way, cpu), spread(way, cpu)
        p_ns = per_op("profiler" + way[len("sonde"):], cpu)
        fig[f"torch.op_ns_{way.replace('-', '_')}{sfx}_spread"] = noise
        fig[f"torch.{key}{sfx}_bound"] = p_ns / (max(s_ns, 0) + noise)
        if s_ns > noise:
            fig[f"torch.{key}{sfx}"] = p_ns / s_ns
        else:
            missing[f"torch.{key}{sfx}"] = (
                f"sonde's added cost ({s_ns:.0f} ns an op) is within one round's spread "
                f"({noise:.0f} ns) at load {os.getloadavg()[0]:.1f}; "
                f"torch.{key}{sfx}_bound is the ratio's lower bound")
    raw[workload] = {"ops": ops, "cpu_s": cpu, "wall_s": wall}
    if "kineto" in ws:
        fig[f"torch.op_ns_kineto_collect{sfx}"] = per_op("kineto", cpu)
    return fig


res, missing, raw = {}, {}, {}
micro = os.path.join(build, "bench", "torch-ops-bench")
mnist = os.path.join(build, "examples", "mnist")
if not (os.path.exists(torchlib) and os.path.exists(proflib)):
    missing["torch.op_ns_sonde"] = "libsonde_torch or bench/libsonde-bench-profiler was not built"
else:
    for key, binary, workload, argv in (
            ("torch.op_ns_sonde", micro, "micro", [micro, str(micro_ops)]),
            ("torch.op_ns_sonde_mnist", mnist, "mnist",
             [mnist, os.path.join(build, "examples", "mnist-data"),
              "--checkpoint", os.path.join(tmp, "model.pt")])):
        if workload not in workloads:
            continue
        if not os.path.exists(binary):
            missing[key] = f"{os.path.relpath(binary, build)} was not built"
            continue
        try:
            res.update(measure(workload, argv))
        except subprocess.CalledProcessError as e:
            missing[key] = f"a {workload} run failed: {' '.join(map(str, e.cmd))}: exit {e.returncode}"
res["torch.profiler_rounds"] = rounds
res["torch.profiler_load1"] = os.getloadavg()[0]
if missing:
    res["not_measured"] = missing
    for k, why in missing.items():
        print(f"bench: {k} not measured: {why}", file=sys.stderr)
json.dump(res, open(out, "w"), indent=1)
# Every run's times, for the record (results.py merge skips *-raw.json).
json.dump(raw, open(out[:-len(".json")] + "-raw.json" if out.endswith(".json") else out + "-raw",
                    "w"), indent=1)
print(json.dumps(res, indent=1))
shutil.rmtree(tmp, ignore_errors=True)
