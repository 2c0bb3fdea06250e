#!/usr/bin/env python3
"""What sonde-rewrite costs against a syntax-only compile, and whether -j2
keeps two cores busy.

  rewriter/bench/rewrite-vs-syntax-only.py BUILD [--pairs N]

1. rewrite.vs_syntax_only: sonde-rewrite (plan, spec-code check, output) on
   examples/mnist/mnist.cpp with examples/mnist/probes.yaml, against
   clang++-19 -fsyntax-only on the same file with the same flags, in N pairs
   whose order alternates; the median over pairs of the CPU-time ratio
   (user + sys of the child: the machine is shared).
2. rewrite.j2_busy_cores: 20 translation units (copies of
   examples/plain/plain.cpp) through `-p` with `-j 2`: (user + sys) / wall,
   which is 2.0 when both cores are busy all along.

Writes BUILD/bench/parts/rewrite.json and prints it.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH_INCLUDE = "/usr/include/torch/csrc/api/include"


def run(cmd, cwd=None):
    """CPU seconds (user + sys) and wall seconds of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    rewrite = os.path.abspath(os.path.join(args.build, "rewriter", "sonde-rewrite"))
    source = os.path.join(ROOT, "examples", "mnist", "mnist.cpp")
    spec = os.path.join(ROOT, "examples", "mnist", "probes.yaml")
    flags = ["-std=c++17", "-I" + TORCH_INCLUDE]
    plain = ["clang++-19", "-fsyntax-only"] + flags + [source]
    rewr = [rewrite, "--spec", spec, source, "--"] + flags
    ratios = []
    for i in range(args.pairs):
        order = [(plain, "p"), (rewr, "r")] if i % 2 == 0 else [(rewr, "r"), (plain, "p")]
        t = {}
        for cmd, key in order:
            t[key] = run(cmd)[0]
        ratios.append(t["r"] / t["p"])
        print("bench: pair %d: rewrite %.2fs, syntax-only %.2fs" % (i, t["r"], t["p"]),
              file=sys.stderr)
    result = {"rewrite.vs_syntax_only": round(statistics.median(ratios), 3)}

    tmp = tempfile.mkdtemp(prefix="sonde-rewrite-bench.")
    try:
        plain_cpp = os.path.join(ROOT, "examples", "plain", "plain.cpp")
        files, db = [], []
        for n in range(20):
            name = "tu%02d.cpp" % n
            shutil.copy(plain_cpp, os.path.join(tmp, name))
            files.append(name)
            db.append({"directory": tmp, "file": name,
                       "command": "clang++ -std=c++17 -O2 -c " + name})
        json.dump(db, open(os.path.join(tmp, "compile_commands.json"), "w"))
        cmd = [rewrite, "--spec", os.path.join(ROOT, "examples", "plain", "probes.yaml"),
               "-p", tmp, "-j", "2", "-o", os.path.join(tmp, "out")] + files
        cpu, wall = run(cmd, cwd=tmp)
        result["rewrite.j2_busy_cores"] = round(cpu / wall, 2)
    finally:
        shutil.rmtree(tmp)

    out_dir = os.path.join(args.build, "bench", "parts")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "rewrite.json"), "w") as f:
        json.dump(result, f)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
