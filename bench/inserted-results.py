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

Medians over the repetitions, all from one interleaved run.
"""
import json
import statistics
import sys


def main():
    parts = sys.argv[1]
    raw = json.load(open(f"{parts}/inserted-raw.json"))
    per = {}
    for b in raw["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        per.setdefault(b["run_name"].split("/")[0], []).append(b["ns_per_event"] * 1e9)
    med = {k: statistics.median(v) for k, v in per.items()}
    floor = med["Floor_RdtscStore"]
    fig = {
        "runtime.inserted_watch_vs_floor": med["Inserted_Watch"] / floor,
        "runtime.inserted_region_vs_2floor": med["Inserted_Region"] / (2 * floor),
        "runtime.inserted_watch_vs_hand": med["Inserted_Watch"] / med["Hand_Watch"],
        "runtime.inserted_region_vs_hand": med["Inserted_Region"] / med["Hand_Region"],
        "runtime.inserted_off_ns": med["Inserted_Off"],
    }
    json.dump(fig, open(f"{parts}/inserted.json", "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
