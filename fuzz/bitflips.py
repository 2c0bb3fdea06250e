#!/usr/bin/env python3
"""Every single-bit flip of small real traces through fuzz-trace.

    fuzz/bitflips.py FUZZ_TRACE TRACE...

Writes each one-bit mutation of each TRACE (8 per byte) into a scratch
directory and runs the fuzz-trace binary (reader, summary, info, dump,
every export, merge and report, under ASan and UBSan) once over all of
them. Exits 1 on any crash or sanitizer report, naming the input; 77 when
the binary is not built (SONDE_FUZZ off).
"""

import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, traces = sys.argv[1], sys.argv[2:]
    if not os.access(binary, os.X_OK):
        print(f"bitflips: {binary} is not built (configure with "
              "-DSONDE_FUZZ=ON, clang only)")
        return 77
    scratch = tempfile.mkdtemp(prefix="sonde-bitflips-")
    inputs = os.path.join(scratch, "inputs")
    os.mkdir(inputs)
    count = 0
    for trace in traces:
        with open(trace, "rb") as f:
            data = f.read()
        base = os.path.basename(trace)
        for i in range(len(data)):
            for bit in range(8):
                m = bytearray(data)
                m[i] ^= 1 << bit
                with open(os.path.join(inputs, f"{base}@{i}.{bit}"), "wb") as f:
                    f.write(m)
                count += 1
    log = os.path.join(scratch, "log")
    with open(log, "w") as out:
        # -runs=0: run every input once, mutate nothing.
        rc = subprocess.call(
            [binary, "-runs=0", "-timeout=30", "-rss_limit_mb=2048",
             f"-artifact_prefix={scratch}/", inputs],
            stdout=out, stderr=subprocess.STDOUT,
            env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1"))
    print(f"bitflips: {count} mutated files of {len(traces)} traces, "
          f"exit {rc}")
    if rc != 0:
        with open(log) as f:
            for line in f:
                if any(k in line for k in ("ERROR", "SUMMARY", "runtime error",
                                           "Test unit written", "Running:")):
                    print(line, end="")
        print(f"bitflips: log and reproducer kept in {scratch}")
        return 1
    shutil.rmtree(scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
