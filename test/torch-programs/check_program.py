#!/usr/bin/env python3
"""End-to-end: one libtorch program of test/torch-programs, in the shape real
libtorch code has, built plain and instrumented from its probe spec by every
front door, run, and its records checked exactly against PROGRAM.expect.json.

Builds (each its own binary, each run with SONDE_OUTPUT set):
  plugin            clang++-19 -fplugin=... (by hand, every source)
  rewrite-g++       sonde-rewrite, then g++
  rewrite-clang++-19  the same copies, then clang++-19
  cmake-plugin, cmake-rewrite   with --cmake: the program's own CMake
                    project (plain target_link_libraries signature plus one
                    sonde_instrument() line) against the installed package,
                    in place of the hand-built plugin and rewrite-g++ builds
A multi-file program (--compdb) is rewritten with -p and a
compile_commands.json; a single file with `-- FLAGS`.

Checks, per build: stdout identical to the plain build's; the process ended
normally with nothing dropped; region, watch and API record counts exactly
as expected, and nothing else; and as the expectations ask: the args each
record carries, (epoch, step) sequences in order, nesting levels (a record
made inside another is one level deeper), the shapes recorded by tensor
watches, 0-dim tensor watches recorded by value and shown by `sonde summary`
(min and max), API argument shapes, and the loss falling.

  check_program.py --sonde S --rewrite R --plugin P --include I --libdir L
                   --torch-cflags F --torch-libs L --dir D --sources A [B..]
                   --spec Y --expect E [--compdb] [--cmake --build B]
"""
import argparse
import collections
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from checks import (check, check_api_arg_shapes, check_counts, check_ended,  # noqa: E402
                    check_watch_shapes, done, export, region_key as key)

ap = argparse.ArgumentParser()
for a in ("sonde", "rewrite", "plugin", "include", "libdir", "torch-cflags",
          "torch-libs", "dir", "spec", "expect"):
    ap.add_argument("--" + a, required=True)
ap.add_argument("--sources", nargs="+", required=True)
ap.add_argument("--flags", default="-std=c++17 -O1")
ap.add_argument("--gxx", default="g++")
ap.add_argument("--clang", default="clang++-19")
ap.add_argument("--compdb", action="store_true",
                help="rewrite with -p and a compile_commands.json")
ap.add_argument("--cmake", action="store_true",
                help="build the plugin and rewrite variants with the program's CMakeLists.txt")
ap.add_argument("--build", help="sonde's build tree (installed for --cmake)")
ap.add_argument("--torch-dir", default="", help="Torch_DIR for --cmake")
ap.add_argument("--keep", action="store_true", help="keep the work directory")
opt = ap.parse_args()
expect = json.load(open(opt.expect))


class BuildFailed(Exception):
    pass


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        print("$", " ".join(cmd), "\n", p.stdout[-4000:], p.stderr[-4000:], flush=True)
        raise BuildFailed(f"{os.path.basename(cmd[0])} exited with {p.returncode}")
    return p


tmp = tempfile.mkdtemp(prefix="sonde-torch-program-")
flags = opt.flags.split()
torch_cflags = shlex.split(opt.torch_cflags)
torch_libs = shlex.split(opt.torch_libs)
sources = [os.path.join(opt.dir, s) for s in opt.sources]
runtime_libs = [f"-L{opt.libdir}", "-Wl,--no-as-needed", "-lsonde_torch", "-lsonde",
                "-Wl,--as-needed", f"-Wl,-rpath,{opt.libdir}", "-pthread"]
# The light runtime headers cover whatever a plan asks for (docs/cmake.md).
runtime_includes = [f"-I{opt.include}", "-include", "sonde/sonde.h", "-include", "sonde/torch.h"]


def compile_link(cxx, srcs, out, extra):
    sh([cxx, *flags, *torch_cflags, *extra, *srcs, "-o", out, *torch_libs])


builds = []  # (name, binary)
plain = f"{tmp}/plain"
try:
    compile_link(opt.gxx, sources, plain, [])
except BuildFailed as e:
    sys.exit(f"FAIL: the plain build fails ({e}): the program itself does not compile")


def try_build(name, fn):
    """A build that fails is a failed check, not the end of the others."""
    try:
        builds.append((name, fn()))
    except BuildFailed as e:
        check(False, f"{name}: the build succeeds ({e})")


def plugin_build():
    out = f"{tmp}/plugin"
    compile_link(opt.clang, sources, out,
                 [f"-fplugin={opt.plugin}", f"-fplugin-arg-sonde-spec={os.path.abspath(opt.spec)}",
                  f"-I{opt.include}", *runtime_libs])
    return out


rewritten = []


def rewrite():
    """The instrumented copies, made once for both compilers."""
    if rewritten:
        return rewritten
    dest = f"{tmp}/src"
    if opt.compdb:
        db = [{"directory": opt.dir, "file": s,
               "arguments": [opt.gxx, *flags, *torch_cflags, "-c", s, "-o", s + ".o"]} for s in sources]
        os.makedirs(f"{tmp}/db")
        json.dump(db, open(f"{tmp}/db/compile_commands.json", "w"), indent=1)
        sh([opt.rewrite, "--spec", opt.spec, "-p", f"{tmp}/db", "-o", dest, *opt.sources], cwd=opt.dir)
    else:
        sh([opt.rewrite, "--spec", opt.spec, "-o", dest, *opt.sources, "--", *flags, *torch_cflags],
           cwd=opt.dir)
    for s in opt.sources:
        copy = os.path.join(dest, s)
        orig = open(os.path.join(opt.dir, s)).read().split("\n")
        check(os.path.exists(copy) and len(open(copy).read().split("\n")) == len(orig),
              f"rewrite: {s} is written and keeps every line number")
        rewritten.append(copy)
    return rewritten


def rewrite_build(cxx):
    def build():
        out = f"{tmp}/rewrite-{os.path.basename(cxx)}"
        compile_link(cxx, rewrite(), out, [*runtime_includes, f"-iquote{opt.dir}", *runtime_libs])
        return out
    return build


def cmake_build(mode, cxx):
    def build():
        prefix = f"{tmp}/prefix"
        if not os.path.isdir(prefix):
            sh(["cmake", "--install", opt.build, "--prefix", prefix])
        b = f"{tmp}/cmake-{mode}"
        sh(["cmake", "-S", opt.dir, "-B", b, "-G", "Ninja", f"-DCMAKE_CXX_COMPILER={cxx}",
            f"-DCMAKE_PREFIX_PATH={prefix}", f"-DSONDE_MODE={mode}", f"-DCMAKE_CXX_FLAGS={opt.flags}",
            *([f"-DTorch_DIR={opt.torch_dir}"] if opt.torch_dir else [])])
        sh(["cmake", "--build", b])
        exe = os.path.splitext(os.path.basename(sources[0]))[0]
        return os.path.join(b, exe)
    return build


if opt.cmake:
    try_build("cmake-plugin", cmake_build("plugin", opt.clang))
    try_build("cmake-rewrite", cmake_build("rewrite", opt.gxx))
else:
    try_build("plugin", plugin_build)
    try_build(f"rewrite-{os.path.basename(opt.gxx)}", rewrite_build(opt.gxx))
try_build(f"rewrite-{os.path.basename(opt.clang)}", rewrite_build(opt.clang))

base = sh([plain], cwd=tmp).stdout
for name, binary in builds:
    traces = f"{tmp}/{name}-traces"
    os.makedirs(traces)
    run = subprocess.run([binary], cwd=tmp, capture_output=True, text=True,
                         env=dict(os.environ, SONDE_OUTPUT=traces))
    check(run.returncode == 0, f"{name}: the program exits 0 (got {run.returncode}; {run.stderr[-300:]!r})")
    check(run.stdout == base, f"{name}: stdout is identical with and without instrumentation")
    if run.returncode != 0:
        continue
    recs = export(opt.sonde, traces)
    check_ended(name, recs)
    check_counts(name, recs, expect)

    # Context: every record of a key carries these args.
    for k, names in expect.get("args", {}).items():
        rs = [r for r in recs if (key(r) if r["kind"] == "region" else r.get("name")) == k
              and r["kind"] in ("region", "watch")]
        missing = [r.get("args", {}) for r in rs if not set(names) <= set(r.get("args", {}))]
        check(rs and not missing, f"{name}: {k}: every record carries {names}"
              f" ({len(missing)} of {len(rs)} do not; first: {missing[:1]})")

    # (epoch, step) of a key's records, in the order the program made them.
    for k, seq in expect.get("sequence", {}).items():
        rs = [r for r in recs if r["kind"] == "region" and key(r) == k]
        got = [(r.get("args", {}).get("epoch"), r.get("args", {}).get("step")) for r in rs]
        want = [(e, s) for e in seq["epochs"] for s in range(seq["steps"])]
        check(got == want, f"{name}: {k}: one record per (epoch, step), in order"
              f" (first records {got[:3]}, expected {want[:3]})")

    # Nesting: a record made inside another one is one level deeper.
    for child, parents in expect.get("levels", {}).items():
        got = {r.get("level") for r in recs if r["kind"] == "region" and key(r) == child}
        plevels = {r.get("level") for r in recs if r["kind"] == "region" and key(r) in parents}
        want = {p + 1 for p in plevels if p is not None}
        check(len(plevels) == 1 and got == want,
              f"{name}: {child}: level {sorted(got, key=str)}, expected one more than {parents} ({sorted(plevels, key=str)})")

    check_watch_shapes(name, recs, expect.get("watch_shapes", {}))

    # 0-dim tensors watched with `summary: value`: the value is recorded,
    # and `sonde summary` shows it (min and max over the records).
    summary = json.loads(sh([opt.sonde, "summary", traces, "--json"]).stdout)
    swatch = {w["name"]: w for w in summary["watches"]}
    for k in expect.get("scalar_watches", []):
        vals = [r.get("value") for r in recs if r["kind"] == "watch" and r["name"] == k]
        ok = all(isinstance(v, dict) and v.get("shape") == [] and v.get("numel") == 1
                 and isinstance(v.get("value"), (int, float)) and math.isfinite(v["value"]) for v in vals)
        check(vals and ok, f"{name}: {k}: every record holds a 0-dim tensor's value ({vals[:1]})")
        if not (vals and ok):
            continue
        nums = [v["value"] for v in vals]
        w = swatch.get(k, {})
        check(isinstance(w.get("min"), (int, float)) and isinstance(w.get("max"), (int, float))
              and math.isclose(w["min"], min(nums), rel_tol=1e-6)
              and math.isclose(w["max"], max(nums), rel_tol=1e-6),
              f"{name}: summary: {k} shows min {min(nums):.6g} and max {max(nums):.6g}"
              f" (it shows first {w.get('first')}, last {w.get('last')}, min {w.get('min')}, max {w.get('max')})")

    # The loss is lower in the last epoch than in the first.
    falls = expect.get("loss_falls")
    if falls:
        by_epoch = collections.defaultdict(list)
        for r in recs:
            if r["kind"] == "watch" and r["name"] == falls and isinstance(r.get("value"), dict) \
                    and "epoch" in r.get("args", {}):
                by_epoch[r["args"]["epoch"]].append(r["value"]["value"])
        mean = lambda v: sum(v) / len(v)
        check(len(by_epoch) >= 2 and mean(by_epoch[max(by_epoch)]) < mean(by_epoch[min(by_epoch)]),
              f"{name}: {falls} falls from the first epoch to the last ({ {e: round(mean(v), 4) for e, v in by_epoch.items()} })")

    # apis: one pre and one post per call, same call ids; argument shapes.
    api = [r for r in recs if r["kind"] == "api"]
    for fn, n in expect.get("apis", {}).items():
        pre = [r for r in api if r["function"] == fn and r["phase"] == "pre"]
        post = [r for r in api if r["function"] == fn and r["phase"] == "post"]
        check(len(pre) == n and len(post) == n,
              f"{name}: {fn}: {len(pre)} pre and {len(post)} post records, expected {n} each")
        check(sorted(r["call"] for r in pre) == sorted(r["call"] for r in post),
              f"{name}: {fn}: every pre record has its post, with the same call id")
    extra = {r["function"] for r in api} - set(expect.get("apis", {}))
    check(not extra, f"{name}: no unexpected api records ({sorted(extra)})")
    check_api_arg_shapes(name, api, expect.get("api_arg_shapes", {}))

if opt.keep:
    print("kept", tmp)
else:
    shutil.rmtree(tmp, ignore_errors=True)
done(f" ({', '.join(n for n, _ in builds)})")
