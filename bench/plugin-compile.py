#!/usr/bin/env python3
"""What the plugin costs at compile time, on a libtorch training TU.

  bench/plugin-compile.py BUILD [--pairs N] [--spec FILE] [--source FILE]

Compiles examples/mnist/mnist.cpp with clang++-19 and the project's own
flags for it (from BUILD/compile_commands.json), plain and with the plugin
(-fplugin-arg-sonde-spec=examples/mnist/probes.yaml), in N pairs whose order
alternates, and once more with a precompiled <torch/torch.h> (-include-pch,
the PCH built once, without the plugin). Each ratio is the median over the
pairs of plugin CPU time / plain CPU time (user + sys of the compiler; the
machine is shared, and CPU time is what a compile costs whatever else runs).
The plugin's split compile forks the compiler once the headers are parsed;
the child is waited for, so its CPU time is in the compiler's (rusage of
children counts waited-for grandchildren).

Writes BUILD/bench/parts/plugin.json:
  {"plugin.compile_ratio_nopch": r, "plugin.compile_ratio_pch": r}
and the raw timings in BUILD/bench/parts/plugin-raw.json.
"""
import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Unmeasurable(SystemExit):
    """Why the compile cannot be measured (its flags are not known, it
    fails): the exit of this script, with the message; what
    bench/plugin-instructions.py catches to say its figures were not
    measured."""


def flags_for(build, source):
    """The build's compile flags for `source`, minus compiler, -c, -o."""
    db = os.path.join(build, "compile_commands.json")
    for e in json.load(open(db)):
        if os.path.realpath(e["file"]) != os.path.realpath(source):
            continue
        args = e.get("arguments") or shlex.split(e["command"])
        out, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
                continue
            if a in ("-o", "-c"):
                skip = a == "-o"
                continue
            if os.path.realpath(a) == os.path.realpath(source):
                continue
            out.append(a)
        return out, e["directory"]
    raise Unmeasurable("bench: %s is not in %s (configure the examples with libtorch)"
                       % (source, db))


def timed(cmd, cwd):
    """CPU seconds (user + sys) and wall seconds of one compile."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise Unmeasurable("bench: compile failed:\n%s\n%s" % (" ".join(cmd), r.stderr))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def pairs(n, plain, plugin, cwd, label):
    runs = []
    for i in range(n):
        order = [("plain", plain), ("plugin", plugin)]
        if i % 2:
            order.reverse()
        got = {}
        for name, cmd in order:
            got[name] = timed(cmd, cwd)
        ratio = got["plugin"][0] / got["plain"][0]
        print("bench: plugin %s pair %d: plain %.1f s, plugin %.1f s, ratio %.3f"
              % (label, i + 1, got["plain"][0], got["plugin"][0], ratio),
              file=sys.stderr)
        runs.append({"plain_cpu": got["plain"][0], "plain_wall": got["plain"][1],
                     "plugin_cpu": got["plugin"][0],
                     "plugin_wall": got["plugin"][1], "ratio": ratio})
    return statistics.median(r["ratio"] for r in runs), runs


def compile_arguments(p):
    """The arguments saying what is compiled: shared with
    bench/plugin-instructions.py, which counts the same compiles."""
    p.add_argument("build")
    p.add_argument("--source", default=os.path.join(ROOT, "examples/mnist/mnist.cpp"))
    p.add_argument("--spec", default=os.path.join(ROOT, "examples/mnist/probes.yaml"))
    p.add_argument("--clang", default="clang++-19")


def main():
    p = argparse.ArgumentParser()
    compile_arguments(p)
    p.add_argument("--pairs", type=int, default=7)
    a = p.parse_args()
    build = os.path.abspath(a.build)
    plugin = os.path.join(build, "plugin", "sonde-plugin-clang19.so")
    if not os.path.exists(plugin):
        sys.exit("bench: no plugin at %s (build the engine)" % plugin)
    flags, cwd = flags_for(build, a.source)
    source = os.path.abspath(a.source)
    parts = os.path.join(build, "bench", "parts")
    os.makedirs(parts, exist_ok=True)
    plugin_flags = ["-fplugin=" + plugin,
                    "-fplugin-arg-sonde-spec=" + os.path.abspath(a.spec)]

    with tempfile.TemporaryDirectory(prefix="sonde-plugin-bench.") as tmp:
        obj = os.path.join(tmp, "tu.o")
        plain = [a.clang] + flags + ["-c", source, "-o", obj]
        with_plugin = [a.clang] + flags + plugin_flags + ["-c", source, "-o", obj]
        # Warm the file cache and check that both compile.
        timed(with_plugin, cwd)
        nopch, nopch_runs = pairs(a.pairs, plain, with_plugin, cwd, "no PCH")

        header = os.path.join(tmp, "pch.h")
        open(header, "w").write("#include <torch/torch.h>\n")
        pch = os.path.join(tmp, "pch.h.pch")
        timed([a.clang] + flags + ["-x", "c++-header", header, "-o", pch], cwd)
        use = ["-include-pch", pch]
        plain = [a.clang] + flags + use + ["-c", source, "-o", obj]
        with_plugin = [a.clang] + flags + use + plugin_flags + ["-c", source, "-o", obj]
        timed(with_plugin, cwd)
        withpch, pch_runs = pairs(a.pairs, plain, with_plugin, cwd, "PCH")

    fig = {"plugin.compile_ratio_nopch": nopch, "plugin.compile_ratio_pch": withpch}
    json.dump(fig, open(os.path.join(parts, "plugin.json"), "w"), indent=1)
    json.dump({"source": source, "spec": os.path.abspath(a.spec), "flags": flags,
               "nopch": nopch_runs, "pch": pch_runs},
              open(os.path.join(parts, "plugin-raw.json"), "w"), indent=1)
    print(json.dumps(fig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
