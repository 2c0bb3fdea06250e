#!/usr/bin/env python3
"""scripts/sonde-launch: what each rank's environment holds, the exit status
it returns, and that one failing rank stops the others (which would wait
for it forever in a c10d job). No timing: a stopped rank is one that
sleeps for an hour and is seen gone."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from checks import check, done  # noqa: E402

launch = os.path.abspath(sys.argv[1])


def run(n, script, *opts):
    return subprocess.run([launch, "-n", str(n), *opts, "--", "sh", "-c", script],
                          capture_output=True, text=True, timeout=600)


# The environment of every rank: torchrun's variables, one free port.
p = run(3, 'echo "$RANK $LOCAL_RANK $WORLD_SIZE $LOCAL_WORLD_SIZE $MASTER_ADDR $MASTER_PORT"')
check(p.returncode == 0, f"all ranks succeed: exit 0 ({p.returncode}, {p.stderr})")
rows = sorted(l.split() for l in p.stdout.splitlines())
check([r[:5] for r in rows] == [[str(i), str(i), "3", "3", "127.0.0.1"] for i in range(3)],
      f"RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR per rank: {rows}")
ports = {r[5] for r in rows}
check(len(ports) == 1 and 0 < int(next(iter(ports))) < 65536, f"one port for all: {ports}")

# --port is used as given; --free-port prints one.
p = run(1, 'echo $MASTER_PORT', "--port", "12345")
check(p.stdout.strip() == "12345", f"--port: {p.stdout!r}")
f = subprocess.run([launch, "--free-port"], capture_output=True, text=True)
check(f.returncode == 0 and re.fullmatch(r"\d+\n", f.stdout), f"--free-port: {f.stdout!r}")

# The worst status, a signal as 128+S.
p = run(3, 'exit $((RANK == 2 ? 6 : 0))')
check(p.returncode == 6, f"the worst status of 0, 0, 6: {p.returncode}")
p = run(2, '[ "$RANK" = 1 ] && kill -KILL $$; exit 0')
check(p.returncode == 128 + 9, f"a rank killed by SIGKILL: {p.returncode}")

# One rank fails: the others, which would wait forever, are stopped, and
# the failing rank's status is returned (not the stopped ranks' SIGTERM).
p = run(3, '[ "$RANK" = 1 ] && exit 3; exec sleep 3600')
check(p.returncode == 3, f"a failing rank's status: {p.returncode}")
check("rank 1 exited with status 3; stopping the other ranks" in p.stderr, f"said: {p.stderr!r}")

# A program that cannot start.
p = subprocess.run([launch, "-n", "2", "--", "/nonexistent/prog"], capture_output=True, text=True)
check(p.returncode == 127 and "cannot start /nonexistent/prog" in p.stderr, f"no program: {p.returncode} {p.stderr!r}")
# Usage errors.
p = subprocess.run([launch, "--", "true"], capture_output=True, text=True)
check(p.returncode == 2, f"no -n: usage error ({p.returncode})")
done()
