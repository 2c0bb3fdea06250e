#!/usr/bin/env python3
"""Runs execution cases through both front doors and checks that they agree.

For every case (a complete program whose probe spec is in `// SPEC:` lines,
with optional `// ARGS:` for its command line):
  - sonde-rewrite's plan (--list-sites) and the plugin's plan
    (-fplugin-arg-sonde-list-sites) are identical;
  - the program built from the rewritten copy and the program built with
    the plugin record identical JSONL (`sonde export --format jsonl`) once
    pid, tid, ts, dur, ppid, the time origin and the file's own site number
    are removed (`site_id`, the plan's stable id, is compared);
  - each records something (a case that records nothing proves nothing).

  front-doors.py --rewrite R --plugin P --trace T --clang C --include I
                 --lib L --work DIR CASE_OR_DIR...
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

VOLATILE = ("pid", "tid", "ts", "dur", "ppid", "origin_unix_ns", "site")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s\nexit %d\n%s%s" % (" ".join(cmd), r.returncode,
                                                r.stdout, r.stderr))
    return r.stdout


def records(a, exe, trace_dir, argv):
    shutil.rmtree(trace_dir, ignore_errors=True)
    os.makedirs(trace_dir)
    env = dict(os.environ, SONDE_OUTPUT=trace_dir)
    subprocess.run([exe] + argv, env=env, capture_output=True, timeout=120)
    out = run([a.trace, "export", trace_dir, "--format", "jsonl"])
    recs = []
    for line in out.splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        for k in VOLATILE:
            r.pop(k, None)
        recs.append(json.dumps(r, sort_keys=True))
    return recs


def check(a, case, work):
    # Both front doors read one snapshot of the case.
    os.makedirs(work, exist_ok=True)
    text = open(case, encoding="utf-8").read()
    origin = os.path.dirname(case)
    case = os.path.join(work, os.path.basename(case))
    open(case, "w", encoding="utf-8").write(text)
    spec = "".join(re.sub(r"^// SPEC: ?", "", l) + "\n"
                   for l in text.splitlines() if l.startswith("// SPEC:"))
    m = re.search(r"^// ARGS:(.*)$", text, re.M)
    argv = m.group(1).split() if m else []
    os.makedirs(work, exist_ok=True)
    yaml = os.path.join(work, "spec.yaml")
    open(yaml, "w").write(spec)
    # `// STD: c++20` in a case: the standard both front doors compile with.
    m = re.search(r"^// STD: *(\S+)$", text, re.M)
    # -iquote: the snapshot's "..." includes; -I: a case may call sonde by
    # hand too (exec/misnested.cpp), with the runtime's headers on its path.
    std = ["-std=" + (m.group(1) if m else "c++17"),
           "-iquote", origin, "-I", a.include]
    link = ["-L" + a.lib, "-lsonde", "-Wl,-rpath," + a.lib]

    # Front door 1: rewrite, then compile the copy.
    rewritten = os.path.join(work, "rewritten.cpp")
    open(rewritten, "w").write(run([a.rewrite, "--spec", yaml, case, "--"] + std))
    rw_sites = run([a.rewrite, "--spec", yaml, "--list-sites", case, "--"] + std)
    os.makedirs(os.path.join(work, "rw"), exist_ok=True)
    rw_exe = os.path.join(work, "rw", "prog")
    run([a.clang] + std + ["-O1", "-include", "sonde/sonde.h", "-I", a.include,
                           rewritten, "-o", rw_exe] + link)

    # Front door 2: the plugin, on the original.
    pl_sites_file = os.path.join(work, "plugin.sites")
    os.makedirs(os.path.join(work, "pl"), exist_ok=True)
    pl_exe = os.path.join(work, "pl", "prog")
    run([a.clang] + std + ["-O1", "-fplugin=" + a.plugin,
                           "-fplugin-arg-sonde-spec=" + yaml,
                           "-fplugin-arg-sonde-list-sites=" + pl_sites_file,
                           case, "-o", pl_exe] + link)
    pl_sites = open(pl_sites_file).read()

    problems = []
    if rw_sites != pl_sites:
        problems.append("plans differ\n--- sonde-rewrite\n%s--- plugin\n%s" %
                        (rw_sites, pl_sites))
    rw = records(a, rw_exe, os.path.join(work, "rw", "trace"), argv)
    pl = records(a, pl_exe, os.path.join(work, "pl", "trace"), argv)
    if not [r for r in rw if '"kind": "process"' not in r]:
        problems.append("records nothing")
    if rw != pl:
        import difflib
        problems.append("records differ\n" + "\n".join(difflib.unified_diff(
            rw, pl, "sonde-rewrite", "plugin", lineterm="")))
    return problems, len(rw)


def main():
    p = argparse.ArgumentParser()
    for opt in ("rewrite", "plugin", "trace", "clang", "include", "lib", "work"):
        p.add_argument("--" + opt, required=True)
    p.add_argument("cases", nargs="+")
    a = p.parse_args()
    cases = []
    for c in a.cases:
        if os.path.isdir(c):
            cases += sorted(glob.glob(os.path.join(c, "*.cpp")))
        else:
            cases.append(c)
    cases = [c for c in cases
             if "// SPEC:" in open(c, encoding="utf-8").read()
             and re.search(r"\bint\s+main\s*\(", open(c, encoding="utf-8").read())]
    if not cases:
        print("error: no execution case found")
        return 1
    failed = 0
    for i, case in enumerate(cases):
        work = os.path.join(a.work, "%02d-%s" % (i, os.path.basename(case)))
        try:
            problems, n = check(a, os.path.abspath(case), work)
        except Exception as e:  # a build or a tool failed
            problems, n = [str(e)], 0
        status = "ok" if not problems else "FAIL"
        print("%s: %s (%d records)" % (status, case, n))
        for pr in problems:
            print("  " + pr.replace("\n", "\n  "))
        failed += bool(problems)
    print("%d of %d cases agree" % (len(cases) - failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
