#!/usr/bin/env python3
"""inserted-bench's figures (bench/InsertedBench.cpp):

  bench/inserted-results.py PARTS
      PARTS/inserted-raw.json -> PARTS/inserted.json

  runtime.inserted_watch_vs_floor   sonde::watchAt (what inserted code calls)
                                    over an rdtsc-stamped store
  runtime.inserted_region_vs_2floor sonde::InsertedRegion over two of them
  runtime.inserted_watch_vs_hand    watchAt over the inlined watchScalar
  runtime.inserted_region_vs_hand   InsertedRegion over the inlined Region
  runtime.inserted_off_ns           watchAt on a site that is off

and, from the g++ build (PARTS/inserted-gxx-raw.json, where watchAt of a
scalar is the asm that calls sonde_watch_trampoline):

  runtime.trampoline_watch_vs_call  the trampoline's watch over the call's,
                                    both in that run
  runtime.trampoline_watch_vs_floor the trampoline's watch over the floor
  runtime.trampoline_off_ns         a site that is off, by the trampoline

Medians over the repetitions, each binary's from one interleaved run. A
g++ build that is missing is said in "not_measured".
"""
import os
import json
import statistics
import sys


def medians(path):
    """Each benchmark's median ns per event."""
    raw = json.load(open(path))
    per = {}
    for b in raw["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        per.setdefault(b["run_name"].split("/")[0], []).append(b["ns_per_event"] * 1e9)
    return {k: statistics.median(v) for k, v in per.items()}


def main():
    parts = sys.argv[1]
    med = medians(f"{parts}/inserted-raw.json")
    floor = med["Floor_RdtscStore"]
    fig = {
        "runtime.inserted_watch_vs_floor": med["Inserted_Watch"] / floor,
        "runtime.inserted_region_vs_2floor": med["Inserted_Region"] / (2 * floor),
        "runtime.inserted_watch_vs_hand": med["Inserted_Watch"] / med["Hand_Watch"],
        "runtime.inserted_region_vs_hand": med["Inserted_Region"] / med["Hand_Region"],
        "runtime.inserted_off_ns": med["Inserted_Off"],
    }
    gxx = f"{parts}/inserted-gxx-raw.json"
    if os.path.exists(gxx):
        g = medians(gxx)
        fig["runtime.trampoline_watch_vs_call"] = g["Inserted_Watch"] / g["Inserted_WatchCall"]
        fig["runtime.trampoline_watch_vs_floor"] = g["Inserted_Watch"] / g["Floor_RdtscStore"]
        fig["runtime.trampoline_off_ns"] = g["Inserted_Off"]
    else:
        why = "inserted-bench-gxx was not built (no g++)"
        fig["not_measured"] = {k: why for k in (
            "runtime.trampoline_watch_vs_call", "runtime.trampoline_watch_vs_floor",
            "runtime.trampoline_off_ns")}
    json.dump(fig, open(f"{parts}/inserted.json", "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
