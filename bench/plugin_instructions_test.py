#!/usr/bin/env python3
"""bench/plugin-instructions.py without running a compile: callgrind's files
of a split compile counted into parent and child, and the figures that
cannot be measured (no valgrind, no plugin, no flags for the example, a
compile that fails, a compile not split) said on
stderr and in the part's "not_measured", the script exiting 0 so that the
rest of `make bench` goes on.
"""
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugin-instructions.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = ["plugin.instructions_ratio_pch", "plugin.instructions_plain_pch_g",
           "plugin.instructions_parent_pch_g", "plugin.instructions_child_pch_g"]


def module():
    spec = importlib.util.spec_from_file_location("plugin_instructions", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Counts(unittest.TestCase):
    def test_a_split_compile_is_counted_once_per_part(self):
        pi = module()
        with tempfile.TemporaryDirectory() as tmp:
            # The parent's part before the fork (.1) and after it, the
            # child's from the fork; an object file beside them is no count.
            for name, n in [("plugin.100.1", 700), ("plugin.100", 300),
                            ("plugin.101", 50), ("plugin.o", None)]:
                with open(os.path.join(tmp, name), "w") as f:
                    f.write("events: Ir\n" if n is None else
                            "events: Ir\nfn=main\n1 %d\ntotals: %d\n" % (n, n))
            by_pid, dumped = pi.totals(os.path.join(tmp, "plugin"))
            self.assertEqual(by_pid, {"100": 1000, "101": 50})
            self.assertEqual(dumped, {"100"})
            self.assertEqual(pi.split(by_pid, dumped), (1000, 50))

    def test_a_compile_that_did_not_split_is_not_measured(self):
        pi = module()
        with self.assertRaisesRegex(pi.NotMeasured, r"ran 1 processes, 0 of them"):
            pi.split({"100": 1000}, set())
        with self.assertRaisesRegex(pi.NotMeasured, r"ran 2 processes, 2 of them"):
            pi.split({"100": 1000, "101": 50}, {"100", "101"})


class NotMeasured(unittest.TestCase):
    def run_script(self, path_dirs, make_build=lambda build: None, args=()):
        with tempfile.TemporaryDirectory() as build:
            make_build(build)
            env = dict(os.environ, PATH=os.pathsep.join(path_dirs))
            p = subprocess.run([sys.executable, SCRIPT, build, *args], env=env,
                               capture_output=True, text=True)
            part = os.path.join(build, "bench", "parts", "plugin-instructions.json")
            with open(part) as f:
                return p, json.load(f), build

    def check(self, p, part, why):
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(part), ["not_measured"])
        self.assertEqual(sorted(part["not_measured"]), sorted(FIGURES))
        for k in FIGURES:
            self.assertRegex(part["not_measured"][k], why)
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], "^bench/plugin-instructions.py: not measured: " + why)

    def test_without_valgrind(self):
        with tempfile.TemporaryDirectory() as empty:
            p, part, _ = self.run_script([empty])
        self.check(p, part, r"valgrind is not installed")

    def with_valgrind(self, bin_dir):
        """A `valgrind` on PATH (never run: each case stops before)."""
        fake = os.path.join(bin_dir, "valgrind")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
        return [bin_dir, "/usr/bin", "/bin"]

    @staticmethod
    def build_with(entries):
        """A build directory with a plugin (any ELF file objcopy takes) and
        a compile_commands.json of `entries`."""
        def make(build):
            os.makedirs(os.path.join(build, "plugin"))
            shutil.copy(sys.executable, os.path.join(build, "plugin",
                                                     "sonde-plugin-clang19.so"))
            with open(os.path.join(build, "compile_commands.json"), "w") as f:
                json.dump(entries, f)
        return make

    def test_without_the_plugin(self):
        with tempfile.TemporaryDirectory() as bin_dir:
            p, part, build = self.run_script(self.with_valgrind(bin_dir))
        self.check(p, part, r"no plugin at .*/plugin/sonde-plugin-clang19\.so "
                            r"\(build the engine\)")

    def test_a_build_without_the_example(self):
        with tempfile.TemporaryDirectory() as bin_dir:
            p, part, _ = self.run_script(self.with_valgrind(bin_dir),
                                         self.build_with([]))
        self.check(p, part, r".*examples/mnist/mnist\.cpp is not in "
                            r".*compile_commands\.json \(configure the examples "
                            r"with libtorch\)$")

    def test_a_compile_that_fails(self):
        source = os.path.join(ROOT, "examples", "mnist", "mnist.cpp")
        entry = {"directory": ROOT, "file": source,
                 "arguments": ["clang++-19", "-std=c++17", "-c", source, "-o", "m.o"]}
        with tempfile.TemporaryDirectory() as bin_dir:
            p, part, _ = self.run_script(self.with_valgrind(bin_dir),
                                         self.build_with([entry]), ["--clang", "false"])
        # The PCH's build, its command on the same line.
        self.check(p, part, r"compile failed: false -std=c\+\+17 -x c\+\+-header "
                            r"\S*/pch\.h -o \S*/pch\.h\.pch$")


if __name__ == "__main__":
    unittest.main()
