#!/usr/bin/env python3
"""torch.op_ns_*: sonde's op tracing against libtorch 1.13's own profiler.

  torch-profiler.py BUILD OUT.json [--rounds=N] [--ops=N]

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
thread and the writing of the profiler's trace included); the added cost
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
micro_ops = int(opts.get("ops", 1000000))
build = os.path.abspath(build)
sonde = os.path.join(build, "runtime", "sonde")
torchlib = os.path.join(build, "runtime", "libsonde_torch.so")
proflib = os.path.join(build, "bench", "libsonde-bench-profiler.so")
tmp = tempfile.mkdtemp(prefix="sonde-bench-torch-profiler-")


def run(argv, env_add):
    """CPU seconds (user + sys) and wall seconds of one run."""
    env = dict(os.environ, **env_add)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, wall


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

    def per_op(n, series):
        return statistics.median((series[n][i] - series["plain"][i]) / ops[n] * 1e9
                                 for i in range(rounds))

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
    # The ratio of the medians' per-round ratios would mix rounds; the
    # ratio of the two medians is what the two figures say.
    fig[f"torch.profiler_vs_sonde{sfx}"] = (fig[f"torch.op_ns_profiler{sfx}"] /
                                            fig[f"torch.op_ns_sonde{sfx}"])
    fig[f"torch.profiler_vs_sonde_shapes{sfx}"] = (fig[f"torch.op_ns_profiler_shapes{sfx}"] /
                                                   fig[f"torch.op_ns_sonde_shapes{sfx}"])
    if "kineto" in ws:
        fig[f"torch.op_ns_kineto_collect{sfx}"] = per_op("kineto", cpu)
    return fig


res, missing = {}, {}
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
print(json.dumps(res, indent=1))
shutil.rmtree(tmp, ignore_errors=True)
