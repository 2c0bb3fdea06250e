#!/usr/bin/env python3
"""bench/results.py on made-up benchmark outputs: a figure whose peer was not
built (spdlog, LTTng-UST) or could not run (no LTTng session) is said in
results.json's "not_measured", in the table, and in one line on stderr;
with every peer there, nothing is.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.py")
INSERTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inserted-results.py")
TRAMPOLINE = ["runtime.trampoline_watch_vs_call", "runtime.trampoline_watch_vs_floor",
              "runtime.trampoline_off_ns"]
SPDLOG = ["runtime.spdlog_ns", "runtime.spdlog_vs_sonde"]
LTTNG = ["runtime.lttng_ns", "runtime.lttng_vs_sonde", "runtime.lttng_vs_floor"]


def fake_parts(parts, benchmarks):
    raw = [{"run_name": name + "/min_time:0.200", "run_type": "iteration",
            "ns_per_event": ns * 1e-9}
           for name, ns in [("Floor_RdtscStore", 8), ("Sonde_Watch", 10),
                            ("Sonde_Region", 20), ("Sonde_Instant", 9),
                            *benchmarks]]
    with open(f"{parts}/runtime-raw.json", "w") as f:
        json.dump({"benchmarks": raw}, f)
    with open(f"{parts}/runtime-throughput.jsonl", "w") as f:
        for _ in range(3):
            print(json.dumps({"mrec_s": 50.0, "records": 100, "dropped": 0,
                              "file_bytes": 1600, "cpu_sonde-writer": 1e-6,
                              "cpu_main": 2e-6, "producer_loop_ns": 15.0,
                              "floor_ns": 12.5}), file=f)


class NotMeasured(unittest.TestCase):
    def results(self, benchmarks, lttng):
        """results.json, the table and stderr of `runtime` then `merge`."""
        with tempfile.TemporaryDirectory() as parts:
            fake_parts(parts, benchmarks)
            err = ""
            for cmd in (["runtime", parts, lttng],
                        ["merge", parts, f"{parts}/results.json"]):
                p = subprocess.run([sys.executable, RESULTS, *cmd],
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                err += p.stderr
            with open(f"{parts}/results.json") as f:
                return json.load(f), p.stdout, err.splitlines()

    def test_peers_not_built(self):
        res, table, err = self.results([], "no")
        missing = res["not_measured"]
        self.assertEqual(sorted(missing), sorted(SPDLOG + LTTNG))
        self.assertIn("built without spdlog", missing["runtime.spdlog_ns"])
        self.assertIn("built without LTTng-UST", missing["runtime.lttng_ns"])
        self.assertFalse(set(SPDLOG + LTTNG) & set(res))
        self.assertAlmostEqual(res["runtime.watch_vs_floor"], 10 / 8)
        # The producer's own loop clock, not its /proc time; the floor's.
        self.assertAlmostEqual(res["runtime.throughput_producer_ns"], 15)
        self.assertAlmostEqual(res["runtime.throughput_writer_ns"], 10)
        self.assertAlmostEqual(res["runtime.throughput_floor_mrec_s"], 80)
        self.assertAlmostEqual(res["runtime.throughput_producer_vs_floor"], 1.2)
        # One line per peer on stderr, naming its figures and why.
        self.assertEqual(err, [
            "bench: %s not measured: %s" % (", ".join(SPDLOG), missing[SPDLOG[0]]),
            "bench: %s not measured: %s" % (", ".join(LTTNG), missing[LTTNG[0]])])
        for k in SPDLOG + LTTNG:
            self.assertRegex(table, r"(?m)^%s +not measured: " % k)

    def test_paired_ratios(self):
        """With a floor burst beside each burst (vs_floor), the ratios are
        the medians of those pairs, not of the benchmarks' own medians."""
        with tempfile.TemporaryDirectory() as parts:
            fake_parts(parts, [])
            raw = json.load(open(f"{parts}/runtime-raw.json"))
            pairs = {"Sonde_Watch": [1.02, 1.5, 1.04], "Sonde_Region": [2.1, 2.0, 3.0],
                     "Sonde_Instant": [1.01, 1.0, 0.9]}
            raw["benchmarks"] = [
                dict(b, run_name=b["run_name"] + "/repeats:3", vs_floor=r)
                for b in raw["benchmarks"] for r in pairs.get(b["run_name"].split("/")[0], [None])]
            for b in raw["benchmarks"]:
                if b["vs_floor"] is None:
                    del b["vs_floor"]
            json.dump(raw, open(f"{parts}/runtime-raw.json", "w"))
            p = subprocess.run([sys.executable, RESULTS, "runtime", parts, "no"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            res = json.load(open(f"{parts}/runtime.json"))
        self.assertAlmostEqual(res["runtime.watch_vs_floor"], 1.04)
        self.assertAlmostEqual(res["runtime.region_vs_2floor"], 1.05)
        self.assertAlmostEqual(res["runtime.instant_vs_floor"], 1.0)
        self.assertAlmostEqual(res["runtime.region_ns"], 20)

    def test_no_lttng_session(self):
        res, _, err = self.results([("Spdlog_AsyncFile", 30), ("Lttng_Tracepoint", 40)], "no")
        self.assertEqual(res["not_measured"],
                         {k: "no LTTng session could start here" for k in LTTNG})
        self.assertAlmostEqual(res["runtime.spdlog_vs_sonde"], 3)
        self.assertEqual(len(err), 1)

    def test_every_peer_measured(self):
        res, table, err = self.results([("Spdlog_AsyncFile", 30), ("Lttng_Tracepoint", 40)], "yes")
        self.assertNotIn("not_measured", res)
        self.assertAlmostEqual(res["runtime.lttng_vs_floor"], 5)
        self.assertNotIn("not measured", table)
        self.assertEqual(err, [])


class Trampoline(unittest.TestCase):
    """inserted-results.py: the trampoline's figures from the g++ build, or
    said not measured when there is none."""

    def inserted(self, gxx):
        def raw(path, ns):
            json.dump({"benchmarks": [
                {"run_name": n + "/manual_time", "run_type": "iteration",
                 "ns_per_event": v * 1e-9} for n, v in ns.items()]}, open(path, "w"))
        with tempfile.TemporaryDirectory() as parts:
            raw(f"{parts}/inserted-raw.json",
                {"Floor_RdtscStore": 10, "Hand_Watch": 11, "Inserted_Watch": 12,
                 "Hand_Region": 20, "Inserted_Region": 21, "Inserted_Off": 3,
                 "Inserted_WatchCall": 12})
            if gxx:
                raw(f"{parts}/inserted-gxx-raw.json",
                    {"Floor_RdtscStore": 10, "Hand_Watch": 11, "Inserted_Watch": 15,
                     "Hand_Region": 20, "Inserted_Region": 21, "Inserted_Off": 8,
                     "Inserted_WatchCall": 12})
            p = subprocess.run([sys.executable, INSERTED, parts], capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            p = subprocess.run([sys.executable, RESULTS, "merge", parts,
                                f"{parts}/results.json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            return json.load(open(f"{parts}/results.json"))

    def test_gxx_build(self):
        res = self.inserted(True)
        self.assertAlmostEqual(res["runtime.trampoline_watch_vs_call"], 15 / 12)
        self.assertAlmostEqual(res["runtime.trampoline_watch_vs_floor"], 1.5)
        self.assertAlmostEqual(res["runtime.trampoline_off_ns"], 8)
        self.assertAlmostEqual(res["runtime.inserted_watch_vs_hand"], 12 / 11)
        self.assertNotIn("not_measured", res)

    def test_no_gxx_build(self):
        res = self.inserted(False)
        self.assertEqual(sorted(res["not_measured"]), sorted(TRAMPOLINE))
        self.assertFalse(set(TRAMPOLINE) & set(res))


class Parts(unittest.TestCase):
    """results.json says when each part was written, and a part from an
    older run (bench-quick after an old bench-compile) is said on stderr."""

    def merge(self, ages_hours):
        with tempfile.TemporaryDirectory() as parts:
            now = time.time()
            for name, age in ages_hours.items():
                path = f"{parts}/{name}"
                with open(path, "w") as f:
                    json.dump({name.replace(".json", ".figure"): 1.5}, f)
                os.utime(path, (now - age * 3600, now - age * 3600))
            p = subprocess.run([sys.executable, RESULTS, "merge", parts,
                                f"{parts}/results.json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            return json.load(open(f"{parts}/results.json")), p.stderr.splitlines()

    def test_one_run(self):
        res, err = self.merge({"runtime.json": 0, "compile-corpus.json": 1.5})
        self.assertEqual(sorted(res["parts"]), ["compile-corpus.json", "runtime.json"])
        self.assertRegex(res["parts"]["runtime.json"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual(err, [])

    def test_a_part_cut_short(self):
        with tempfile.TemporaryDirectory() as parts:
            with open(f"{parts}/runtime.json", "w") as f:
                json.dump({"runtime.watch_vs_floor": 1.01}, f)
            with open(f"{parts}/trace.json", "w") as f:
                f.write('{"trace.summary_mrec_s": 2')
            p = subprocess.run([sys.executable, RESULTS, "merge", parts,
                                f"{parts}/results.json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            res = json.load(open(f"{parts}/results.json"))
            self.assertEqual(res["runtime.watch_vs_floor"], 1.01)
            self.assertNotIn("trace.summary_mrec_s", res)
            self.assertIn("trace.json is not a JSON object of figures",
                          res["not_measured"]["part trace.json"])
            self.assertRegex(p.stderr, r"^bench: trace.json is not a JSON object of figures "
                                       r"\(.*\): its figures are left out\n$")

    def test_a_part_from_an_older_run(self):
        res, err = self.merge({"runtime.json": 0, "compile-corpus.json": 30})
        self.assertEqual(res["compile-corpus.figure"], 1.5)
        self.assertEqual(len(err), 1)
        self.assertRegex(err[0], r"^bench: compile-corpus.json was written 30.0 hours before "
                                 r"the newest part \(.*Z\): its figures are from an older run$")


if __name__ == "__main__":
    unittest.main()
