#!/usr/bin/env python3
"""scripts/bench's figures, from what the benchmarks wrote:

  bench/results.py runtime PARTS LTTNG
      PARTS/runtime-raw.json (runtime-bench) and runtime-throughput.jsonl
      (throughput-bench) -> PARTS/runtime.json; LTTNG is "yes" when an LTTng
      session recorded the tracepoints
  bench/results.py merge PARTS OUT
      every PARTS/*.json but the *-raw.json -> OUT (results.json), with
      when each part was written ("parts"), and the table of it on stdout

A figure that cannot be measured is said, in results.json ("not_measured":
figure -> why) and in one line on stderr, never silently left out.
"""
import glob
import json
import os
import statistics
import sys
import time


def runtime(parts, lttng):
    raw = json.load(open(f"{parts}/runtime-raw.json"))
    per, paired = {}, {}
    for b in raw["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b["run_name"].split("/")[0]
        per.setdefault(name, []).append(b["ns_per_event"] * 1e9)  # seconds per event
        if "vs_floor" in b:
            paired.setdefault(name, []).append(b["vs_floor"])
    med = {k: statistics.median(v) for k, v in per.items()}

    def vs_floor(name):
        # Each repetition's median of bursts against a floor burst timed
        # beside them (RuntimeBench.cpp, `bursts`); the ratio of the two
        # benchmarks' own medians only when the run has no pairs. Those are
        # taken seconds apart and moved by 10 to 20 % between runs on a
        # loaded machine: one binary gave a region 0.96 to 1.24 in ten runs.
        if name in paired:
            return statistics.median(paired[name])
        return med[name] / med["Floor_RdtscStore"]

    fig = {
        "runtime.floor_ns": med["Floor_RdtscStore"],
        "runtime.watch_ns": med["Sonde_Watch"],
        "runtime.region_ns": med["Sonde_Region"],
        "runtime.instant_ns": med["Sonde_Instant"],
        "runtime.watch_vs_floor": vs_floor("Sonde_Watch"),
        # A region is two events (entry, exit) against two floor stores.
        "runtime.region_vs_2floor": vs_floor("Sonde_Region") / 2,
        "runtime.instant_vs_floor": vs_floor("Sonde_Instant"),
    }
    missing = {}

    def not_measured(names, why):
        for n in names:
            missing[n] = why
        print("bench: %s not measured: %s" % (", ".join(names), why), file=sys.stderr)

    if "Spdlog_AsyncFile" in med:
        fig["runtime.spdlog_ns"] = med["Spdlog_AsyncFile"]
        fig["runtime.spdlog_vs_sonde"] = med["Spdlog_AsyncFile"] / med["Sonde_Watch"]
    else:
        not_measured(["runtime.spdlog_ns", "runtime.spdlog_vs_sonde"],
                     "runtime-bench was built without spdlog (install libspdlog-dev: "
                     "scripts/install-deps --bench, then re-run cmake on the build)")
    if lttng and "Lttng_Tracepoint" in med:
        fig["runtime.lttng_ns"] = med["Lttng_Tracepoint"]
        fig["runtime.lttng_vs_sonde"] = med["Lttng_Tracepoint"] / med["Sonde_Watch"]
        # The bound of lttng_vs_sonde for any tracer that reads the TSC.
        fig["runtime.lttng_vs_floor"] = med["Lttng_Tracepoint"] / med["Floor_RdtscStore"]
    else:
        not_measured(["runtime.lttng_ns", "runtime.lttng_vs_sonde", "runtime.lttng_vs_floor"],
                     "no LTTng session could start here" if "Lttng_Tracepoint" in med else
                     "runtime-bench was built without LTTng-UST (install liblttng-ust-dev "
                     "and lttng-tools: scripts/install-deps --bench, then re-run cmake on "
                     "the build)")
    if missing:
        fig["not_measured"] = missing
    runs = [json.loads(l) for l in open(f"{parts}/runtime-throughput.jsonl")]
    fig["runtime.throughput_mrec_s"] = statistics.median(r["mrec_s"] for r in runs)

    # What the pipeline sustains when its two threads each have a core:
    # records over the busier thread's CPU time (the wall-clock figure above
    # drops when other work shares the machine).
    def producer(r):
        return max(v for k, v in r.items() if k.startswith("cpu_") and k != "cpu_sonde-writer")

    def cpu_bound(r):
        return r["records"] / max(r["cpu_sonde-writer"], producer(r), 1e-9) / 1e6

    def producer_ns(r):
        # The recording loop alone in the thread's own clock (ns), when the
        # benchmark gives it: the /proc figure also holds the final flush,
        # which drains the ring on the producer's thread, in 10 ms ticks.
        if "producer_loop_ns" in r:
            return r["producer_loop_ns"]
        return 1e9 * producer(r) / r["records"]

    def writer_ns(r):
        return 1e9 * r["cpu_sonde-writer"] / r["records"]

    fig["runtime.throughput_cpu_bound_mrec_s"] = statistics.median(
        1e3 / max(producer_ns(r), writer_ns(r), 1e-9) for r in runs)
    fig["runtime.throughput_producer_ns"] = statistics.median(producer_ns(r) for r in runs)
    fig["runtime.throughput_writer_ns"] = statistics.median(writer_ns(r) for r in runs)
    # The floor, side by side in each run: rdtsc-stamped stores, the least a
    # thread that stamps each record with the TSC spends on it here; 1e3 /
    # floor is the most records per second one such thread can make.
    if all("floor_ns" in r for r in runs):
        fig["runtime.throughput_floor_ns"] = statistics.median(r["floor_ns"] for r in runs)
        fig["runtime.throughput_floor_mrec_s"] = statistics.median(
            1e3 / r["floor_ns"] for r in runs)
        fig["runtime.throughput_producer_vs_floor"] = statistics.median(
            producer_ns(r) / r["floor_ns"] for r in runs)
    if all("tsc_ns" in r for r in runs):
        # The TSC read alone: 1e3 / tsc_ns M records/s is what no tracer
        # that stamps each record with its own read can pass from one thread.
        fig["runtime.throughput_tsc_ns"] = statistics.median(r["tsc_ns"] for r in runs)
    fig["runtime.throughput_dropped"] = max(r["dropped"] for r in runs)
    fig["runtime.bytes_per_record"] = statistics.median(r["file_bytes"] / r["records"] for r in runs)
    json.dump(fig, open(f"{parts}/runtime.json", "w"), indent=1)


# Parts written this long before the newest one are from another run.
STALE_HOURS = 3


def merge(parts, out):
    """Every part (later issues add theirs) into results.json, with the time
    each part was written ("parts": file -> UTC time), and a line on stderr
    for each part from an older run than the newest (bench-quick alone
    leaves the last bench-compile's parts in place)."""
    res, missing, written = {}, {}, {}
    for f in sorted(glob.glob(parts + "/*.json")):
        if f.endswith("-raw.json"):
            continue
        try:
            with open(f) as fh:
                part = json.load(fh)
            if not isinstance(part, dict):
                raise ValueError("not an object of figures")
        except ValueError as e:  # a part cut short (a benchmark killed mid-write)
            why = "%s is not a JSON object of figures (%s): its figures are left out" % (
                os.path.basename(f), e)
            print("bench: " + why, file=sys.stderr)
            missing["part " + os.path.basename(f)] = why
            continue
        missing.update(part.pop("not_measured", {}))
        res.update(part)
        written[os.path.basename(f)] = os.path.getmtime(f)
    newest = max(written.values(), default=0)
    for name, t in sorted(written.items()):
        if newest - t > STALE_HOURS * 3600:
            print("bench: %s was written %.1f hours before the newest part (%s): its figures"
                  " are from an older run" % (name, (newest - t) / 3600, stamp(t)),
                  file=sys.stderr)
    doc = dict(res, parts={k: stamp(t) for k, t in written.items()})
    if missing:
        doc["not_measured"] = missing
    json.dump(doc, open(out, "w"), indent=1, sort_keys=True)
    w = max((len(k) for k in [*res, *missing]), default=0)
    for k in sorted(res):
        v = res[k]
        print(f"{k:<{w}}  {v:.3f}" if isinstance(v, float) else f"{k:<{w}}  {v}")
    for k in sorted(missing):
        print(f"{k:<{w}}  not measured: {missing[k]}")


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "runtime":
        runtime(sys.argv[2], sys.argv[3] == "yes")
    elif len(sys.argv) == 4 and sys.argv[1] == "merge":
        merge(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: bench/results.py runtime PARTS LTTNG | merge PARTS OUT")
