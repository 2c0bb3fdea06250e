#!/usr/bin/env python3
"""What the plugin costs at compile time, counted in instructions.

  bench/plugin-instructions.py BUILD [--spec FILE] [--source FILE]

On this shared VM a median of 7 pairs of CPU times cannot tell a ratio of
1.05 from 1.15 (bench/plugin-compile.py; docs/plugin.md, "Cost"); the
instructions a compile retires do not move with the load. This counts them
with callgrind, side by side: the compile of examples/mnist/mnist.cpp with a
precompiled <torch/torch.h> (the project's flags for it, from
BUILD/compile_commands.json), plain and with the plugin, the two under
valgrind at once (one core each). The split compile forks once the headers
are parsed; callgrind dumps its counts when the parent enters glibc's _Fork
(--dump-before=_Fork), so the parent's parts before and after the fork and
the child's own part are counted once each.

Writes BUILD/bench/parts/plugin-instructions.json:
  plugin.instructions_ratio_pch     (parent + child) / plain
  plugin.instructions_plain_pch_g   the plain compile, G instructions
  plugin.instructions_parent_pch_g  the plugin's compile (the parent)
  plugin.instructions_child_pch_g   the split compile's child after the fork
Both compiles take 4 minutes under callgrind on a quiet machine, up to 25
under load, so it runs after the quick part of `make bench` (`make
bench-compile` runs it alone; `make bench-quick` leaves it out). When the
figures cannot be measured (no valgrind, no plugin, a compile that fails,
a compile that was not split), why is said in one line on stderr and in
"not_measured", and the rest of `make bench` goes on.
"""
import argparse
import glob
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = ["plugin.instructions_ratio_pch", "plugin.instructions_plain_pch_g",
           "plugin.instructions_parent_pch_g", "plugin.instructions_child_pch_g"]


def plugin_compile():
    """bench/plugin-compile.py as a module: the same flags and sources."""
    path = os.path.join(ROOT, "bench", "plugin-compile.py")
    spec = importlib.util.spec_from_file_location("plugin_compile", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class NotMeasured(Exception):
    """Why the figures could not be measured: said on stderr and in the
    part's not_measured, and the rest of `make bench` goes on."""


def cc1(clang, args, cwd):
    """The -cc1 command the driver runs for `args`: valgrind follows it."""
    r = subprocess.run([clang] + args + ["-###"], cwd=cwd, capture_output=True,
                       text=True)
    for line in r.stderr.splitlines():
        if '"-cc1"' in line:
            return shlex.split(line)
    raise NotMeasured("no -cc1 command from %s: %s" % (clang, r.stderr.strip()))


def totals(prefix):
    """{pid: instructions} of callgrind's files PREFIX.<pid>[.<part>], and
    the pids that dumped a part before the end (the one that forked)."""
    out, dumped = {}, set()
    for path in glob.glob(prefix + ".[0-9]*"):
        name = os.path.basename(path)[len(os.path.basename(prefix)) + 1:]
        pid = name.split(".")[0]
        if "." in name:
            dumped.add(pid)
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("totals:"):
                    out[pid] = out.get(pid, 0) + int(line.split()[1])
                    break
    return out, dumped


def split(by_pid, dumped):
    """(parent, child) instructions of the plugin's split compile, from
    totals(): the parent is the one process that dumped a part at the fork
    (callgrind's PREFIX.pid.1), the child's counts start at the fork."""
    parents = [pid for pid in by_pid if pid in dumped]
    if len(by_pid) != 2 or len(parents) != 1:
        raise NotMeasured(
            "the plugin's compile ran %d processes, %d of them counted in parts "
            "at glibc's _Fork: not the parent and the child of a split compile "
            "(was the file split? does this glibc have _Fork?)"
            % (len(by_pid), len(parents)))
    child = sum(n for pid, n in by_pid.items() if pid != parents[0])
    return by_pid[parents[0]], child


def write(parts, fig):
    path = os.path.join(parts, "plugin-instructions.json")
    with open(path, "w") as f:
        json.dump(fig, f, indent=1)
    print(json.dumps(fig))


def main():
    shared = plugin_compile()
    p = argparse.ArgumentParser()
    shared.compile_arguments(p)
    a = p.parse_args()
    build = os.path.abspath(a.build)
    parts = os.path.join(build, "bench", "parts")
    os.makedirs(parts, exist_ok=True)
    try:
        fig = measure(shared, a, build)
    except (NotMeasured, shared.Unmeasurable) as e:
        # One line: a failed compile's message holds its command and errors.
        why = " ".join(str(e).removeprefix("bench: ").split())
        print("bench/plugin-instructions.py: not measured: " + why,
              file=sys.stderr)
        fig = {"not_measured": {k: why for k in FIGURES}}
    write(parts, fig)
    return 0


def measure(shared, a, build):
    """The figures, or NotMeasured (plugin-compile.py's Unmeasurable for
    the flags and the PCH's build)."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        raise NotMeasured("valgrind is not installed (scripts/install-deps --bench)")
    plugin = os.path.join(build, "plugin", "sonde-plugin-clang19.so")
    if not os.path.exists(plugin):
        raise NotMeasured("no plugin at %s (build the engine)" % plugin)
    flags, cwd = shared.flags_for(build, a.source)
    source = os.path.abspath(a.source)

    with tempfile.TemporaryDirectory(prefix="sonde-plugin-instr.") as tmp:
        # Valgrind 3.19 cannot read the DWARF 5 of a RelWithDebInfo build:
        # the plugin it loads is a copy without it (the same code).
        stripped = os.path.join(tmp, "plugin.so")
        r = subprocess.run(["objcopy", "--strip-debug", plugin, stripped],
                           capture_output=True, text=True)
        if r.returncode:
            raise NotMeasured("cannot copy %s without its debug info (objcopy): %s"
                              % (plugin, r.stderr.strip()))
        header = os.path.join(tmp, "pch.h")
        with open(header, "w") as f:
            f.write("#include <torch/torch.h>\n")
        pch = os.path.join(tmp, "pch.h.pch")
        # plugin-compile.py's runner: a failed compile is said, with its
        # command and errors.
        shared.timed([a.clang] + flags + ["-x", "c++-header", header, "-o",
                                          pch], cwd)
        use = ["-include-pch", pch]
        plugin_flags = ["-fplugin=" + stripped,
                        "-fplugin-arg-sonde-spec=" + os.path.abspath(a.spec)]
        runs = {}
        for name, extra in (("plain", []), ("plugin", plugin_flags)):
            cmd = cc1(a.clang, flags + use + extra + [
                "-c", source, "-o", os.path.join(tmp, name + ".o")], cwd)
            prefix = os.path.join(tmp, name)
            runs[name] = (prefix, subprocess.Popen(
                [valgrind, "--tool=callgrind", "--dump-before=_Fork",
                 "--dump-instr=no", "--callgrind-out-file=" + prefix + ".%p"]
                + cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, text=True))
        counts, failed = {}, []
        for name, (prefix, proc) in runs.items():
            _, err = proc.communicate()
            if proc.returncode:
                failed.append("the %s compile under valgrind failed: %s"
                              % (name, err[-2000:].strip()))
            counts[name] = totals(prefix)
        if failed:
            raise NotMeasured("; ".join(failed))

    plain = sum(counts["plain"][0].values())
    parent, child = split(*counts["plugin"])
    return {
        "plugin.instructions_ratio_pch": (parent + child) / plain,
        "plugin.instructions_plain_pch_g": plain / 1e9,
        "plugin.instructions_parent_pch_g": parent / 1e9,
        "plugin.instructions_child_pch_g": child / 1e9,
    }


if __name__ == "__main__":
    sys.exit(main())
