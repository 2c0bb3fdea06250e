#!/usr/bin/env python3
"""Renders `sonde report` in headless Chromium and checks that it is drawn.

Runs the handwritten example as two ranks, writes the report, loads it in
Chromium with the network off (--dump-dom prints the page after its script
ran), and checks what the script left in the DOM: data-status="ok" on
<body>, one SVG chart per section and per watch, each with marks drawn, and
one line per rank in the loss plot. Exit 77 (ctest: skipped) when Chromium
is not installed.

Usage: check_report.py SONDE HANDWRITTEN [--screenshot PNG] [--keep DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("sonde")
ap.add_argument("program")
ap.add_argument("--screenshot", help="also save a screenshot of the page here")
ap.add_argument("--traces", help="report on these traces instead of running the program")
args = ap.parse_args()

browser = shutil.which("chromium") or shutil.which("chromium-browser")
if not browser:
    print("SKIP: chromium is not installed (scripts/install-deps --report installs it)")
    sys.exit(77)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


tmp = tempfile.mkdtemp(prefix="sonde-report-")
traces = args.traces
if not traces:
    traces = os.path.join(tmp, "traces")
    for rank in (0, 1):
        subprocess.run([args.program, "4"], env=dict(os.environ, SONDE_OUTPUT=traces, RANK=str(rank)),
                       capture_output=True, check=True)
html = os.path.join(tmp, "report.html")
p = subprocess.run([args.sonde, "report", traces, "-o", html], capture_output=True, text=True)
check(p.returncode == 0, f"sonde report: exit {p.returncode}: {p.stderr}")
size = os.path.getsize(html)
check(size < 200_000, f"the report is small: {size} bytes")

chrome = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--no-first-run", "--user-data-dir=" + os.path.join(tmp, "profile")]
dom = subprocess.run(chrome + ["--dump-dom", "file://" + html], capture_output=True, text=True, timeout=300).stdout
body = re.search(r"<body([^>]*)>", dom)
check(body is not None, "chromium printed the page")
attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1))) if body else {}
check(attrs.get("data-status") == "ok", f"the page's script finished: {attrs.get('data-status')}")
charts = re.findall(r'<svg[^>]*class="chart"[^>]*>', dom)
marks = [int(m) for c in charts for m in re.findall(r'data-marks="(\d+)"', c)]
# Time by category, by name, one step, and the loss plot.
check(len(charts) >= 4 and int(attrs.get("data-charts", 0)) == len(charts),
      f"four or more charts drawn: {len(charts)}")
check(len(marks) == len(charts) and all(m > 0 for m in marks), f"every chart has marks: {marks}")
polylines = re.findall(r'<polyline points="([^"]*)"', dom)
check(polylines and all(pl.strip() for pl in polylines), "every watch plot has a line")
check(dom.count("<rect") >= 5, "bars and step spans are drawn")
check("<td>loss (last)</td>" in dom.replace("<th>", "<td>").replace("</th>", "</td>"),
      "the per-epoch table has the loss column")
if not args.traces:  # the handwritten example, 4 epochs, two ranks
    check(len(polylines) == 2, f"the loss plot has one line per rank: {len(polylines)}")
    check(all(len(pl.split()) == 4 for pl in polylines), "each line has the 4 epochs' losses")

if args.screenshot:
    subprocess.run(chrome + ["--hide-scrollbars", "--window-size=1200,1500",
                             "--screenshot=" + os.path.abspath(args.screenshot), "file://" + html],
                   capture_output=True, timeout=300)
    check(os.path.getsize(args.screenshot) > 10000, "screenshot written")

shutil.rmtree(tmp, ignore_errors=True)
print(f"report: {size} bytes, {len(charts)} charts, marks {marks}; {len(failures)} failed")
sys.exit(1 if failures else 0)
