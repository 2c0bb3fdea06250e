#!/usr/bin/env python3
"""sonde infer / sonde check on real runs of the MNIST example.

Runs examples/mnist built as mnist-bugs (seeded_bugs.h, probes from
probes-invariants.yaml): two good runs with seeds 1 and 2, a third good run
with seed 3, and each seeded bug with seed 3. Learns invariants from the
first two, then checks: the third good run breaks none (exit 0); each bug
breaks at least one invariant of the expected relation whose names hold
the expected site (exit 1), and none that names an unrelated one where
the expectation says so. Also: usage and file errors exit 2.

Also one directory of all those runs, checked at once: the report is the
sum of the runs' checked one by one. And `check --follow` on a trace
written in two halves: it checks the
first half, says so, and when the rest arrives gives the report a check of
the whole file gives; on a torn trace that never grows, it stops after
--idle seconds and says so. And each run again with a look-ahead of 100
records, shorter than an epoch: the good run breaks nothing and is told
about, each bug's run reports nothing its check at the default does not.

Prints the table bug x relations that caught it (docs/invariants.md).
No timing is measured or assumed: the runs are compared by content only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

# bug -> [(relation, text the invariant's subject, other or scope holds)]:
# each must be among the violations.
EXPECT = {
    "no-zero-grad": [("contains", "compute/zero_grad in train_epoch"),
                     ("precedes", "compute/zero_grad in train_epoch")],
    "frozen": [("changes", "[fc1.weight]")],
    "subset": [("changes", "[conv1.weight]"), ("changes", "[fc1.bias]")],
    "lr-zero": [("same", "compute.step/step in train_epoch"),
                ("changes", "[fc2.weight]")],
    "same-batch": [("differs", "user/data in train_epoch")],
    "eval-on": [("same", "arg training")],
}
# bug -> text no violated invariant may name (what the bug leaves alone).
MUST_NOT = {
    "subset": "[fc2.",          # fc2 is still optimized
    "frozen": "[fc1.bias]",     # only fc1.weight is frozen
    "same-batch": "zero_grad",
    "eval-on": "state/model",   # parameters still train
}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def train(args, out, seed, bug=None):
    os.makedirs(out)
    cmd = [args.program, args.data, "--checkpoint", "", "--seed", str(seed)]
    if bug:
        cmd += ["--bug", bug]
    env = dict(os.environ, SONDE_OUTPUT=out)
    r = run(cmd, env=env)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr))
    files = [f for f in os.listdir(out) if f.endswith(".sonde")]
    if len(files) != 1:
        sys.exit("%s: expected one trace, found %s" % (out, files))
    return out


def check(args, invariants, trace, extra=(), stderr=None):
    r = run([args.sonde, "check", trace, "--invariants", invariants, "--json"]
            + list(extra))
    try:
        report = json.loads(r.stdout)
    except ValueError:
        sys.exit("sonde check %s: not JSON (%d): %s %s"
                 % (trace, r.returncode, r.stdout, r.stderr))
    if stderr is not None:
        stderr.append(r.stderr)
    return r.returncode, report


def follow(args, inv, done, tmp):
    """check --follow on a copy of a finished trace written in two halves.
    The second half is written only once the first was checked (its note
    read), so nothing depends on timing."""
    os.makedirs(tmp)
    src = [os.path.join(done, f) for f in os.listdir(done)][0]
    data = open(src, "rb").read()
    dst = os.path.join(tmp, os.path.basename(src))
    with open(dst, "wb") as f:
        f.write(data[:len(data) // 2])
    p = subprocess.Popen([args.sonde, "check", tmp, "--invariants", inv,
                          "--json", "--follow", "--interval", "0.1",
                          "--idle", "600"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    first = ""
    while "sonde: note: following: " not in first:
        line = p.stderr.readline()
        if not line:
            fail("check --follow ended before its first note: %r" % first)
            break
        first += line
    with open(dst, "ab") as f:
        f.write(data[len(data) // 2:])
    out, err = p.communicate(timeout=600)
    rc, whole = check(args, inv, dst)
    if p.returncode != rc or json.loads(out) != whole:
        fail("check --follow gave exit %d %s, a check of the whole file "
             "exit %d %s" % (p.returncode, out[:200], rc, str(whole)[:200]))
    if "sonde: violation: " not in first + err:
        fail("check --follow said no violation as it went: %r" % err)
    # Torn for good (a killed run): checked as far as it goes, said once.
    with open(dst, "wb") as f:
        f.write(data[:len(data) // 2])
    r = run([args.sonde, "check", dst, "--invariants", inv, "--json",
             "--follow", "--interval", "0.1", "--idle", "0.5"])
    if "no trace grew for" not in r.stderr or not json.loads(r.stdout):
        fail("check --follow on a torn trace: exit %d, %r" % (
            r.returncode, r.stderr))
    shutil.rmtree(tmp)


def names(v):
    return " | ".join([v.get("subject", ""), v.get("other", ""),
                       v.get("scope", "")])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sonde", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--data", required=True)
    args = p.parse_args()

    with tempfile.TemporaryDirectory(prefix="sonde-inv-") as tmp:
        good = [train(args, os.path.join(tmp, "good%d" % s), s)
                for s in (1, 2)]
        third = train(args, os.path.join(tmp, "good3"), 3)
        inv = os.path.join(tmp, "invariants.yaml")
        r = run([args.sonde, "infer"] + good + ["-o", inv])
        if r.returncode != 0:
            sys.exit("sonde infer failed (%d): %s" % (r.returncode, r.stderr))
        with open(inv) as f:
            text = f.read()
        for family in ("order", "containment", "state", "value", "argument"):
            if "family: %s\n" % family not in text:
                fail("no %s invariant learned from the good runs" % family)

        # The third good run (another seed) breaks nothing.
        rc, report = check(args, inv, third)
        if rc != 0 or report["violations"]:
            fail("good run (seed 3): exit %d, violations %s" % (
                rc, [v["invariant"] for v in report["violations"]]))
        if report["invariants"] != text.count("  - family: "):
            fail("check read %d invariants, the file has %d" % (
                report["invariants"], text.count("  - family: ")))

        table = []
        for bug, expected in EXPECT.items():
            trace = train(args, os.path.join(tmp, bug), 3, bug)
            rc, report = check(args, inv, trace)
            vs = report["violations"]
            if rc != 1 or not vs:
                fail("%s: exit %d, %d violations (expected exit 1)" % (
                    bug, rc, len(vs)))
                continue
            for relation, site in expected:
                if not any(v["relation"] == relation and site in names(v)
                           for v in vs):
                    fail("%s: no %s violation naming %r; got %s" % (
                        bug, relation, site,
                        [(v["relation"], names(v)) for v in vs]))
            for v in vs:
                first = v["first"]
                if not first["file"].endswith("mnist.cpp") or first["line"] <= 0:
                    fail("%s: violation located at %s:%s" % (
                        bug, first["file"], first["line"]))
                if v["count"] < 1 or not first["detail"]:
                    fail("%s: violation without count or detail: %s" % (bug, v))
                if bug in MUST_NOT and MUST_NOT[bug] in names(v):
                    fail("%s: unexpected violation naming %r: %s" % (
                        bug, MUST_NOT[bug], v["invariant"]))
            caught = sorted({"%s.%s" % (v["family"], v["relation"]) for v in vs})
            table.append((bug, len(vs), caught))
            # A look-ahead shorter than an epoch: records go out before
            # the train and epoch regions that hold them, as in a run of
            # days at the default (docs/invariants.md, "Long traces").
            # What is reported then, the default reports too.
            _, short = check(args, inv, trace, ["--look-ahead", "100"])
            extra = ({v["line"] for v in short["violations"]}
                     - {v["line"] for v in vs})
            if extra or not short["violations"]:
                fail("%s at --look-ahead 100: %d violations, %s not at the "
                     "default" % (bug, len(short["violations"]),
                                  sorted(extra)))

        # The good run with that look-ahead: nothing broken, and said.
        said = []
        rc, report = check(args, inv, third, ["--look-ahead", "100"], said)
        if rc != 0 or report["violations"]:
            fail("good run (seed 3) at --look-ahead 100: exit %d, "
                 "violations %s" % (rc, [v["invariant"]
                                         for v in report["violations"]]))
        if "events were given before an earlier one" not in said[0]:
            fail("good run at --look-ahead 100: no warning of the records "
                 "given early: %r" % said[0])

        # One directory of them all, checked at once, reports what each
        # checked alone does: nothing a trace leaves behind changes the
        # check of the next (a run without zero_grad, then a good one).
        every = os.path.join(tmp, "every")
        os.makedirs(every)
        alone = {}
        names_in_order = ["no-zero-grad", "good3"] + [
            b for b in EXPECT if b != "no-zero-grad"]
        for i, name in enumerate(names_in_order):
            src = os.path.join(tmp, name)
            trace = [f for f in os.listdir(src) if f.endswith(".sonde")][0]
            dst = os.path.join(every, "%d-%s.sonde" % (i, name))
            shutil.copy(os.path.join(src, trace), dst)
            _, report = check(args, inv, dst)
            for v in report["violations"]:
                alone[v["line"]] = alone.get(v["line"], 0) + v["count"]
        _, report = check(args, inv, every)
        together = {v["line"]: v["count"] for v in report["violations"]}
        if together != alone:
            fail("one directory of every run: violations (invariant line: "
                 "count) %s, each run alone %s" % (together, alone))

        follow(args, inv, os.path.join(tmp, "no-zero-grad"),
               os.path.join(tmp, "follow"))

        # Usage and file errors: exit 2, nothing on standard output.
        for cmd in (["check", third],
                    ["check", third, "--invariants",
                     os.path.join(tmp, "missing.yaml")],
                    ["check", os.path.join(tmp, "missing"),
                     "--invariants", inv],
                    ["infer"], ["infer", third, "--min-support", "0"],
                    ["check", third, "--invariants", inv, "--follow",
                     "--interval", "0"],
                    ["check", third, "--invariants", inv, "--follow=yes"],
                    # --follow on what never becomes a trace: said, exit 2.
                    ["check", os.path.join(tmp, "missing"), "--invariants",
                     inv, "--follow", "--interval", "0.1", "--idle", "0.3"]):
            r = run([args.sonde] + cmd)
            if r.returncode != 2 or r.stdout or "sonde: error:" not in r.stderr:
                fail("sonde %s: exit %d, stdout %r, stderr %r" % (
                    " ".join(cmd), r.returncode, r.stdout, r.stderr))

    print("| bug | violated invariants | relations that caught it |")
    print("|---|---|---|")
    for bug, n, caught in table:
        print("| %s | %d | %s |" % (bug, n, ", ".join(caught)))
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok: %d bugs caught, good run clean" % len(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
