#!/usr/bin/env python3
"""docs/distributed.md's c10d block (comm-spec.yaml, checked to be the
doc's own text) against comm-callsites.cpp: every c10d call, however it is
written (through a ProcessGroup&, a pointer, an intrusive_ptr to the base
or to ProcessGroupGloo, chained with ->wait()), is a site of its category
in its function, and every Work::wait() a comm.wait site; a call in a
lambda's body is none (lambdas are not hosts).

  check_callsites.py SONDE_REWRITE
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from checks import check, done  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
rewrite = sys.argv[1]
source = os.path.join(here, "comm-callsites.cpp")
spec = os.path.join(here, "comm-spec.yaml")

doc = open(os.path.join(here, "..", "..", "docs", "distributed.md")).read()
block = re.search(r"```yaml\n(probes:\n(?:  - .*\n)+)```", doc)
check(block and block.group(1) in open(spec).read(), "comm-spec.yaml is the doc's c10d block")

p = subprocess.run([rewrite, "--spec", spec, "--list-sites", source, "--", "-std=c++17",
                    "-DUSE_C10D_GLOO", "-I/usr/include/torch/csrc/api/include"],
                   capture_output=True, text=True, timeout=600)
check(p.returncode == 0, f"sonde-rewrite --list-sites: exit 0 ({p.returncode}: {p.stderr[-2000:]})")
# <id> region <category> <name> <file>:<line> <function> <callee>
sites = [l.split() for l in p.stdout.splitlines() if not l.startswith("#") and l.strip()]
by_line = {}
for s in sites:
    line = int(s[4].rsplit(":", 1)[1])
    by_line.setdefault(line, []).append((s[2], s[3], s[5]))

for n, text in enumerate(open(source).read().splitlines(), 1):
    if text.endswith("// NONE"):
        check(n not in by_line, f"line {n}: no site in a lambda's body ({by_line.get(n)})")
        continue
    m = re.search(r"// CHECK: (\S+) (\S+)$", text)
    if not m:
        continue
    cat, func = m.groups()
    got = by_line.get(n, [])
    check(any(c == cat and f.endswith("::" + func) for c, _, f in got),
          f"line {n}: a {cat} site in {func} ({got})")
    if "->wait()" in text:
        check(any(c == "comm" and name == "comm.wait" for c, name, _ in got),
              f"line {n}: its wait() a comm.wait site ({got})")
waits = [s for s in sites if s[3] == "comm.wait"]
check(len(waits) == 8, f"every wait() of the file: 8 comm.wait sites ({len(waits)})")
done()
