#!/usr/bin/env python3
"""What instrumented code costs the compiler: a file with 42,500 watch sites.

  bench/compile-stress.py BUILD [--sites N] [--pairs N] [--out FILE]

Generates a C++ file of small functions (about 1.2 lines of source per
site, as the 50,000-line file of issue 18 had), instruments it with
sonde-rewrite and a spec that watches every local of every function
(`* > *`), and compiles the plain file and the instrumented one (with
`-include sonde/sonde.h`, as a build that instruments does) with g++ and
clang++-19 at -O0 and -O2, in N pairs per configuration whose order
alternates. Each figure is the median over the pairs of instrumented /
plain: CPU time (user + sys of the compiler and its children; the machine
is shared, and CPU time is what a compile costs whatever else runs) and
peak resident memory (the largest process of the compile).

Writes BUILD/bench/parts/compile-stress.json:
  {"compile.stress_sites": n,
   "compile.stress_<gcc|clang>_<O0|O2>_cpu_ratio": r,
   "compile.stress_<gcc|clang>_<O0|O2>_mem_ratio": r, ...}
and the raw timings beside it (compile-stress-raw.json, with the load
average before and after: the machine may be shared, and CPU time grows
with the contention). A compiler that is missing is said in
"not_measured", never silently left out.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPEC = """version: 1
watches:
  - at: "* > *"
"""


def generate(sites):
    """A file of functions with 12 watch sites each: two parameters, a
    local's declaration and nine assignments."""
    out = ["#include <cstdint>", ""]
    for f in range((sites + 11) // 12):
        out.append(f"double f{f}(double a, long n) {{")
        out.append("  double acc = a;")
        for i in range(8):
            if i % 2 == 0:
                out.append(f"  acc = acc * 1.0001 + {i}.5;")
            else:
                out.append(f"  n = n + {i};")
        out.append("  acc = acc + static_cast<double>(n);")
        out.append("  return acc;")
        out.append("}")
    return "\n".join(out) + "\n"


def compile_once(cmd):
    """(CPU seconds, peak RSS in KiB) of one compile: wait4's rusage covers
    the driver and the compiler proper it waited for."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("compile-stress: %s failed:\n%s" % (" ".join(cmd), err[-2000:]))
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--sites", type=int, default=42500)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--out")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    out = a.out or os.path.join(build, "bench", "parts", "compile-stress.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    rewrite = os.path.join(build, "rewriter", "sonde-rewrite")
    include = os.path.join(ROOT, "runtime", "include")

    with tempfile.TemporaryDirectory(prefix="sonde-stress.") as tmp:
        plain = os.path.join(tmp, "stress.cpp")
        inst = os.path.join(tmp, "stress.sonde.cpp")
        spec = os.path.join(tmp, "stress.yaml")
        open(plain, "w").write(generate(a.sites))
        open(spec, "w").write(SPEC)
        with open(inst, "w") as f:
            r = subprocess.run([rewrite, "--spec", spec, plain, "--", "-std=c++17"],
                               stdout=f, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit("compile-stress: sonde-rewrite failed:\n" + r.stderr[-2000:])
        # Every form of an inserted watch: watchAt, and the writers the
        # engine names per arithmetic type (watchIntAt, watchFloatAt, ...).
        sites = len(re.findall(r"::sonde::watch(?:Int|UInt|Float|Bool)?At\(",
                               open(inst).read()))
        if sites < a.sites:
            sys.exit("compile-stress: sonde-rewrite inserted %d watches, not "
                     "the %d generated: the figures would not measure them"
                     % (sites, a.sites))
        obj = os.path.join(tmp, "out.o")
        fig = {"compile.stress_sites": sites}
        raw = {"loadavg_before": os.getloadavg()}
        missing = {}
        for name, cxx in (("gcc", "g++"), ("clang", "clang++-19")):
            if not shutil.which(cxx):
                for opt in ("O0", "O2"):
                    for k in ("cpu", "mem"):
                        missing[f"compile.stress_{name}_{opt}_{k}_ratio"] = cxx + " is not installed"
                continue
            for opt in ("O0", "O2"):
                base = [cxx, "-std=c++17", "-" + opt, "-c", "-o", obj]
                cmds = {"plain": base + [plain],
                        "sonde": base + ["-include", "sonde/sonde.h", "-I", include, inst]}
                runs = {"plain": [], "sonde": []}
                for i in range(a.pairs):
                    order = ("plain", "sonde") if i % 2 == 0 else ("sonde", "plain")
                    for k in order:
                        runs[k].append(compile_once(cmds[k]))
                cpu = [s[0] / p[0] for p, s in zip(runs["plain"], runs["sonde"])]
                mem = [s[1] / p[1] for p, s in zip(runs["plain"], runs["sonde"])]
                key = f"compile.stress_{name}_{opt}"
                fig[key + "_cpu_ratio"] = statistics.median(cpu)
                fig[key + "_mem_ratio"] = statistics.median(mem)
                raw[key] = runs
                print("compile-stress: %s -%s: plain %.1f s %d MB, sonde %.1f s %d MB"
                      " (medians), ratios cpu %.2f mem %.2f" % (
                          cxx, opt,
                          statistics.median(x[0] for x in runs["plain"]),
                          statistics.median(x[1] for x in runs["plain"]) // 1024,
                          statistics.median(x[0] for x in runs["sonde"]),
                          statistics.median(x[1] for x in runs["sonde"]) // 1024,
                          fig[key + "_cpu_ratio"], fig[key + "_mem_ratio"]),
                      file=sys.stderr)
        raw["loadavg_after"] = os.getloadavg()
        print("compile-stress: load average %.1f before, %.1f after" % (
            raw["loadavg_before"][0], raw["loadavg_after"][0]), file=sys.stderr)
        if missing:
            fig["not_measured"] = missing
            for k, why in missing.items():
                print("bench: %s not measured: %s" % (k, why), file=sys.stderr)
    json.dump(fig, open(out, "w"), indent=1, sort_keys=True)
    json.dump(raw, open(out.replace(".json", "-raw.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
