#!/usr/bin/env python3
"""Prints the line numbers that the DWARF line table of OBJECT gives to
SOURCE (by file name), sorted and unique, one line: what `-g` must keep
identical between a plain and an instrumented build. With `--files` for
SOURCE: each file the table gives a row, one a line, with its number of
rows (where a debugger can stop)."""
import re
import subprocess
import sys

obj, source = sys.argv[1], sys.argv[2]
out = subprocess.run(["/usr/lib/llvm-19/bin/llvm-dwarfdump", "--debug-line", obj],
                     check=True, capture_output=True, text=True).stdout
files, lines, rows = {}, set(), {}
cur = None
for line in out.splitlines():
    m = re.match(r"file_names\[\s*(\d+)\]:", line.strip())
    if m:
        cur = int(m.group(1))
        continue
    m = re.match(r'name:\s+"(.*)"', line.strip())
    if m and cur is not None:
        files[cur] = m.group(1)
        cur = None
        continue
    m = re.match(r"0x[0-9a-f]+\s+(\d+)\s+(\d+)\s+(\d+)\s", line)
    if m and source == "--files":
        name = files.get(int(m.group(3)), "?")
        rows[name] = rows.get(name, 0) + 1
    elif m and files.get(int(m.group(3)), "").endswith(source):
        lines.add(int(m.group(1)))
if source == "--files":
    for name in sorted(rows):
        print("%s: %d" % (name, rows[name]))
    sys.exit(0)
print(" ".join(str(n) for n in sorted(lines if lines else [0])))
