#!/usr/bin/env python3
"""What instrumenting every function costs the build of a real library.

  bench/corpus-compile.py BUILD [--only yaml-cpp,leveldb] [--pairs 3]

Runs scripts/test-corpus on the named Debian codebases, both front doors,
and turns its build-time ratios (library target, instrument-all spec of
test/corpus/NAME.yaml, CPU time over the plain build with the same compiler
and flags; in rewrite mode sonde-rewrite's own CPU is counted too) into
figures. Each figure is the median of PAIRS ratios, each of an instrumented
build and a plain one run beside it, the order alternating:

  compile.instrumented_ratio_<name>_plugin   clang++-19 -fplugin
  compile.instrumented_ratio_<name>_rewrite  sonde-rewrite + g++ (the
      --verify check of the output runs first, untimed: off by default)
  compile.rewrite_tool_ratio_<name>_rewrite  sonde-rewrite's own part of it

Writes BUILD/bench/parts/compile-corpus.json, the pairs' own figures
included. The run builds each library 4 x PAIRS times and runs its tests
twice (15 minutes on a quiet 2-core machine, an hour or more on a loaded
one), so it runs after the quick part of `make bench` (`make bench-quick`
leaves it out; `make bench-compile` runs it alone), then the parts are
merged into results.json. A codebase whose sources cannot be fetched, or
whose run fails, is said in "not_measured".
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--only", default="yaml-cpp,leveldb")
    ap.add_argument("--pairs", type=int, default=3)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    work = os.path.join(build, "corpus")
    out = os.path.join(build, "bench", "parts", "compile-corpus.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    results = os.path.join(work, "results.jsonl")
    if os.path.exists(results):
        os.remove(results)
    r = subprocess.run([os.path.join(ROOT, "scripts", "test-corpus"), "--build", build,
                        "--work", work, "--only", a.only, "--pairs", str(a.pairs)])
    fig, missing = {}, {}
    rows = []
    if os.path.exists(results):
        rows = [json.loads(l) for l in open(results) if l.strip()]
    for name in a.only.split(","):
        for mode, door in (("rewrite", "rewrite (g++)"), ("plugin", "plugin (clang++-19)")):
            key = f"compile.instrumented_ratio_{name.replace('-', '')}_{mode}"
            row = next((x for x in rows if x["name"] == name and x["mode"] == door), None)
            if row and row.get("ratio"):
                fig[key] = row["ratio"]
                fig[key.replace("instrumented_ratio", "instrumented_pairs")] = [
                    [p["cpu"], p["plain_cpu"]] for p in row["pairs"]]
                if "tool_cpu" in row:  # sonde-rewrite's own part of it
                    fig[key.replace("instrumented_ratio", "rewrite_tool_ratio")] = (
                        statistics.median(p["tool_cpu"] / p["plain_cpu"] for p in row["pairs"]))
            else:
                missing[key] = ("scripts/test-corpus exited %d without a ratio for %s"
                                " (see its output)" % (r.returncode, name))
    if missing:
        fig["not_measured"] = missing
        for k, why in missing.items():
            print("bench: %s not measured: %s" % (k, why), file=sys.stderr)
    json.dump(fig, open(out, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
