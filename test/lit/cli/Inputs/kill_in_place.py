"""kill -9 during a batch `sonde-rewrite --in-place`, several times.

    kill_in_place.py REWRITE SPEC WORKDIR NFILES ROUNDS

Makes NFILES sources, gets their instrumented text from one clean run
(-o), then ROUNDS times copies the sources to a fresh directory, starts
`sonde-rewrite --in-place` on all of them and kills it with SIGKILL at a
random moment: in odd rounds any moment of the run, in even rounds a random
moment of the write phase (SONDE_REWRITE_TEST_BEFORE_WRITE touches a marker
when writing starts: REWRITE is the test-only build sonde-rewrite-test-hooks,
which has that seam). After each kill every file must be either the
original or the whole instrumented text. Stray temporaries
(`*.sonde-tmp-*`) are allowed: a SIGKILL cannot be cleaned up after, and
they are never the file itself. Prints one line per round and exits 1 on
any partial file.
"""

import os
import random
import shutil
import signal
import subprocess
import sys
import time


def main():
    rewrite, spec, work, nfiles, rounds = sys.argv[1:6]
    nfiles, rounds = int(nfiles), int(rounds)
    seed = int(os.environ.get("SEED", time.time_ns() % 100000))
    rng = random.Random(seed)
    print("seed %d" % seed)
    shutil.rmtree(work, ignore_errors=True)
    orig = os.path.join(work, "orig")
    os.makedirs(orig)
    names = []
    for i in range(nfiles):
        name = "f%03d.cpp" % i
        names.append(name)
        with open(os.path.join(orig, name), "w") as f:
            f.write("int step%d(int x) {\n  int y = x * %d;\n  return y + 1;\n}\n"
                    "int step%d_twice(int x) { return step%d(step%d(x)); }\n"
                    % (i, i, i, i, i))
    args = ["--", "-std=c++17"]
    t0 = time.time()
    subprocess.run([rewrite, "--spec", spec, "-o", os.path.join(work, "ref")]
                   + names + args, cwd=orig, check=True,
                   stderr=subprocess.DEVNULL)
    full = time.time() - t0
    before, after = {}, {}
    for n in names:
        with open(os.path.join(orig, n), "rb") as f:
            before[n] = f.read()
        with open(os.path.join(work, "ref", n), "rb") as f:
            after[n] = f.read()
        assert before[n] != after[n], n
    partial_total = 0
    for r in range(1, rounds + 1):
        d = os.path.join(work, "round%d" % r)
        shutil.copytree(orig, d)
        marker = os.path.join(d, "..", "writing%d" % r)
        env = dict(os.environ)
        env["SONDE_REWRITE_TEST_BEFORE_WRITE"] = "touch " + marker
        p = subprocess.Popen([rewrite, "--spec", spec, "--in-place"] + names
                             + args, cwd=d, env=env,
                             stderr=subprocess.DEVNULL)
        if r % 2:
            delay = rng.uniform(0, full)
            time.sleep(delay)
            when = "at %.3f s" % delay
        else:
            while not os.path.exists(marker) and p.poll() is None:
                time.sleep(0.001)
            delay = rng.uniform(0, 0.05)
            time.sleep(delay)
            when = "%.3f s into the writes" % delay
        p.send_signal(signal.SIGKILL)
        p.wait()
        done = untouched = partial = 0
        stray = []
        for entry in sorted(os.listdir(d)):
            path = os.path.join(d, entry)
            if entry in before:
                with open(path, "rb") as f:
                    text = f.read()
                if text == before[entry]:
                    untouched += 1
                elif text == after[entry]:
                    done += 1
                else:
                    partial += 1
                    print("PARTIAL: " + path)
            elif ".sonde-tmp-" in entry:
                stray.append(entry)
            else:
                print("UNEXPECTED: " + path)
                partial += 1
        partial_total += partial
        finished = " (it had finished)" if p.returncode == 0 else ""
        print("round %d: killed %s%s: %d instrumented, %d original, "
              "%d partial, %d stray temporaries"
              % (r, when, finished, done, untouched, partial, len(stray)))
    print("partial files: %d" % partial_total)
    return 1 if partial_total else 0


if __name__ == "__main__":
    sys.exit(main())
