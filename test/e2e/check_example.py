#!/usr/bin/env python3
"""End-to-end: an example training program, instrumented from its probe spec.

For each compiler, rewrites the example with sonde-rewrite, compiles the
instrumented copy and the original with the same flags, runs both, and
checks: stdout identical; the record counts of the expectations file
exactly; every category present; epoch and step args on nested records;
forward = backward = step in training; the loss lower in the last epoch
than in the first; and when the expectations name them, the API call
records (a post or error per pre, same call id, with epoch and step), the
model state records and the shapes recorded by tensor watches.

  check_example.py --rewrite R --sonde S --include I --libdir L
                   --source F --spec Y --expect E [--compiler CXX]...
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import tempfile

from checks import (check, check_api_arg_shapes, check_counts, check_ended, check_watch_shapes,
                    done, export, region_key)

ap = argparse.ArgumentParser()
for a in ("sonde", "expect"):
    ap.add_argument("--" + a, required=True)
# Rewrite mode: the test rewrites and compiles, once per --compiler.
for a in ("rewrite", "include", "libdir", "source", "spec"):
    ap.add_argument("--" + a)
ap.add_argument("--compiler", action="append", default=[])
ap.add_argument("--flags", default="-std=c++17 -O2")
# Prebuilt mode (the plugin front door): both binaries come from the build.
ap.add_argument("--plain", help="the uninstrumented program")
ap.add_argument("--instrumented", help="the same program built through the plugin")
ap.add_argument("--data", default="", help="substituted for {data} in program_args")
opt = ap.parse_args()
expect = json.load(open(opt.expect))


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        print("$", " ".join(cmd), "\n", p.stdout[-3000:], p.stderr[-3000:], flush=True)
        raise SystemExit(f"command failed ({p.returncode}): {cmd[0]}")
    return p


tmp = tempfile.mkdtemp(prefix="sonde-e2e-")
flags = opt.flags.split()
builds = []  # (name, plain binary, instrumented binary)
if opt.instrumented:
    builds.append(("plugin", opt.plain, opt.instrumented))
else:
    sh([opt.rewrite, "--spec", opt.spec, "-o", f"{tmp}/src", opt.source, "--", *flags])
    # The runtime headers the plan asks for (`# headers:` of --list-sites);
    # the rewritten copy cannot include them itself.
    listing = sh([opt.rewrite, "--spec", opt.spec, "--list-sites", opt.source, "--", *flags]).stdout
    headers = next((l.split()[2:] for l in listing.splitlines() if l.startswith("# headers:")),
                   ["sonde/sonde.h"])
    instrumented = next(os.path.join(d, f) for d, _, fs in os.walk(f"{tmp}/src") for f in fs
                        if f == os.path.basename(opt.source))
    orig_lines = open(opt.source).read().split("\n")
    new_lines = open(instrumented).read().split("\n")
    check(len(orig_lines) == len(new_lines), "the instrumented copy keeps every line number")
    for cxx in opt.compiler:
        name = os.path.basename(cxx)
        if not shutil.which(cxx):
            print(f"skip {cxx}: not installed")
            continue
        plain_bin, inst_bin = f"{tmp}/{name}-plain", f"{tmp}/{name}-sonde"
        sh([cxx, *flags, opt.source, "-o", plain_bin])
        includes = [a for h in headers for a in ("-include", h)]
        sh([cxx, *flags, *includes, f"-I{opt.include}", instrumented, "-o", inst_bin,
            f"-L{opt.libdir}", "-lsonde", f"-Wl,-rpath,{opt.libdir}", "-pthread"])
        builds.append((name, plain_bin, inst_bin))

args = [a.replace("{tmp}", tmp).replace("{data}", opt.data) for a in expect.get("program_args", [])]
for name, plain_bin, inst_bin in builds:
    traces = f"{tmp}/{name}-traces"
    os.makedirs(traces)
    base = sh([plain_bin, *args], cwd=tmp).stdout
    env = dict(os.environ, SONDE_OUTPUT=traces)
    out = sh([inst_bin, *args], cwd=tmp, env=env).stdout
    check(out == base, f"{name}: stdout is identical with and without instrumentation")

    recs = export(opt.sonde, traces)
    check_ended(name, recs)
    check_counts(name, recs, expect)
    cats = {r["cat"] for r in recs if r["kind"] in ("region", "watch", "instant")}
    for c in expect["categories"]:
        check(c in cats, f"{name}: category {c} present")

    # Context: the training records carry the epoch and the step.
    tr = expect["training"]
    per_epoch = expect["steps_per_epoch"]
    counts = {}
    for role, key in tr.items():
        rs = [r for r in recs if r["kind"] == "region" and region_key(r) == key
              and "step" in r.get("args", {})]
        counts[role] = len(rs)
        check(all("epoch" in r["args"] for r in rs), f"{name}: {key} records carry the epoch")
        steps = [(r["args"]["epoch"], r["args"]["step"]) for r in rs]
        epochs = expect["regions"]["pipeline/epoch.block"]
        first_epoch = expect.get("first_epoch", 0)
        want = [(e, s) for e in range(first_epoch, first_epoch + epochs) for s in range(per_epoch)]
        diff = next((i for i, (a, b) in enumerate(zip(steps, want)) if a != b), None)
        check(steps == want, f"{name}: {key} has one record per (epoch, step), in order"
              f" ({len(steps)} records; first difference at {diff}:"
              f" {steps[diff] if diff is not None else '-'} instead of {want[diff] if diff is not None else '-'})")
    check(len(set(counts.values())) == 1, f"{name}: forward = backward = step in training ({counts})")
    loss = [r for r in recs if r["kind"] == "watch" and r["name"] == expect["loss"]]
    check(all({"epoch", "step"} <= set(r.get("args", {})) for r in loss), f"{name}: loss watches carry epoch and step")
    by_epoch = collections.defaultdict(list)
    for r in loss:
        by_epoch[r["args"]["epoch"]].append(r["value"])
    first, last = min(by_epoch), max(by_epoch)
    mean = lambda v: sum(v) / len(v)
    check(mean(by_epoch[last]) < mean(by_epoch[first]),
          f"{name}: loss falls ({mean(by_epoch[first]):.4f} -> {mean(by_epoch[last]):.4f})")

    # apis: one pre per call, and one post or error with the same call id.
    api = [r for r in recs if r["kind"] == "api"]
    for fn, n in expect.get("apis", {}).items():
        pre = [r for r in api if r["function"] == fn and r["phase"] == "pre"]
        end = [r for r in api if r["function"] == fn and r["phase"] in ("post", "error")]
        check(len(pre) == n and len(end) == n,
              f"{name}: {fn}: {len(pre)} pre and {len(end)} post records, expected {n} each")
        check(sorted(r["call"] for r in pre) == sorted(r["call"] for r in end),
              f"{name}: {fn}: every pre record has its post, with the same call id")
        check(all({"epoch", "step"} <= set(r.get("args", {})) for r in pre + end),
              f"{name}: {fn}: api records carry epoch and step")
    extra = {r["function"] for r in api} - set(expect.get("apis", {}))
    check(not extra, f"{name}: no unexpected api records ({sorted(extra)})")
    check_api_arg_shapes(name, api, expect.get("api_arg_shapes", {}))

    # state: one record per parameter each time a state site fires.
    state = collections.Counter(r["name"] for r in recs if r["kind"] == "state")
    for key, n in expect.get("state", {}).items():
        check(state[key] == n, f"{name}: state {key}: {state[key]} records, expected {n}")
    params = expect.get("state_params")
    if params:
        got = collections.Counter(r["value"].get("param") for r in recs if r["kind"] == "state")
        per = {p: got[p] for p in params}
        check(len(set(per.values())) == 1 and set(got) == set(params),
              f"{name}: state records cover the parameters {params} equally ({dict(got)})")

    # `sonde summary --json` tells API calls and model state apart from
    # watches, and pairs each call's pre and post records.
    summary = json.loads(sh([opt.sonde, "summary", traces, "--json"]).stdout)
    sapis = {a["function"]: a for a in summary["apis"]}
    for fn, n in expect.get("apis", {}).items():
        a = sapis.get(fn, {})
        check(a.get("calls") == n and a.get("errors") == 0 and a.get("unfinished") == 0
              and 0 < a.get("p50_ns", 0) <= a.get("p99_ns", 0) <= a.get("total_ns", 0),
              f"{name}: summary: {fn}: {a}, expected {n} finished calls")
    check(set(sapis) == set(expect.get("apis", {})), f"{name}: summary: api calls {sorted(sapis)}")
    sstate = {s["name"]: s for s in summary["state"]}
    for key, n in expect.get("state", {}).items():
        st = sstate.get(key, {})
        check(st.get("records") == n and sorted(st.get("params", {})) == sorted(params or st.get("params", {})),
              f"{name}: summary: state {key}: {st}")
    check({w["name"] for w in summary["watches"]} == set(expect["watches"]),
          f"{name}: summary: watches are the watches only ({[w['name'] for w in summary['watches']]})")

    # The spec's `items:` gives the three rates (docs/rates.md): every step
    # counted, every item, and each rate positive; loading and compute are
    # parts of the step, so their rates are at least the train rate.
    rates = expect.get("rates")
    if rates:
        r = summary["rates"]
        total = r["warmup"]["items"] + r["run"]["items"]
        check(r["steps"] == rates["steps"] and total == rates["items"] and r["unfinished"] == 0,
              f"{name}: summary: rates count {r['steps']} steps and {total} items, "
              f"expected {rates['steps']} and {rates['items']}")
        run = r["run"]
        check(all((run[k] or 0) > 0 for k in ("train", "loading", "compute"))
              and run["loading"] >= run["train"] and run["compute"] >= run["train"],
              f"{name}: summary: run rates {run}")
        check(len(r["epochs"]) == len(by_epoch) and all(e["steps"] > 0 for e in r["epochs"]),
              f"{name}: summary: rates per epoch {r['epochs']}")
        text = sh([opt.sonde, "summary", traces]).stdout.splitlines()
        check(text[0].startswith(f"steps      {rates['steps']} done, {rates['items']} items")
              and text[1].startswith("items/s    train ") and text[2].startswith("loss       "),
              f"{name}: summary text starts with steps, items/s and loss: {text[:4]}")
        # The count is the step's own: on its records, not on nested ones.
        counted = [x for x in recs if x["kind"] == "region" and x["name"] == rates["site"]]
        check(all(x.get("args", {}).get("sonde.items", 0) > 0 for x in counted)
              and sum(x["args"]["sonde.items"] for x in counted) == rates["items"],
              f"{name}: {rates['site']} records carry their item count")
        # By identity: `x not in counted` compared whole records, one list
        # scan per record: 230 s of CPU of this test's 600 s timeout.
        counted_ids = {id(x) for x in counted}
        check(not any("sonde.items" in x.get("args", {}) for x in recs
                      if id(x) not in counted_ids),
              f"{name}: no other record carries an item count")

    # Tensor watches record their shape.
    check_watch_shapes(name, recs, expect.get("watch_shapes", {}))

shutil.rmtree(tmp, ignore_errors=True)
done()
