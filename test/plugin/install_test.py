#!/usr/bin/env python3
"""The installed CMake package, used from a separate project (project/):

  1. `cmake --install BUILD --prefix WORK/prefix`;
  2. project/ is configured against that prefix and built in plugin mode
     (clang 19, with and without a precompiled header) and in rewrite mode
     (clang 19, and g++ with a precompiled header); every build's program
     records the expected events, and all record the same (JSONL without
     pid, tid, ts, dur);
  3. plugin mode with g++ fails at configure time, saying why;
  4. editing the spec rebuilds: the new probe's records appear, in both
     modes, without reconfiguring by hand; a comment-only edit recompiles
     nothing in rewrite mode;
  5. a probe that matches nothing in the target (loadData, whose file is
     not instrumented) is reported once per build, not once per file; with
     STRICT a misspelled selector stops the build, naming the nearest name,
     in both modes;
  6. a second rewrite-mode build tree gets every object from ccache;
  7. every installed binary and library finds its libraries (no `not
     found` in ldd: the install RPATH);
  8. the trainer links its data library with the plain signature of
     target_link_libraries, as libtorch's examples do; g++ builds pass it a
     flag clang does not know, which rewrite mode drops and names.

  install_test.py --build BUILD --work WORK [--clang C] [--gxx G]
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VOLATILE = ("pid", "tid", "ts", "dur", "ppid", "origin_unix_ns", "site")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s (exit %d)\n%s%s" % (" ".join(cmd), r.returncode,
                                               r.stdout, r.stderr))
    return r


def records(prefix, exe, trace):
    shutil.rmtree(trace, ignore_errors=True)
    os.makedirs(trace)
    run([exe], env=dict(os.environ, SONDE_OUTPUT=trace))
    out = run([os.path.join(prefix, "bin", "sonde"), "export", trace,
               "--format", "jsonl"]).stdout
    recs = []
    for line in out.splitlines():
        r = json.loads(line)
        for k in VOLATILE:
            r.pop(k, None)
        recs.append(r)
    return recs


def counts(recs):
    return collections.Counter(
        (r["kind"], r.get("cat", ""), r.get("name", "")) for r in recs
        if r["kind"] != "process")


EXPECTED = {
    ("region", "pipeline", "epoch.block"): 2,
    ("region", "compute", "forward"): 8,
    ("region", "compute", "step"): 8,
    ("watch", "user", "loss"): 10,
}


UNMATCHED = ("probes.yaml:10:10: warning: selector 'loadData' matches "
             "nothing in target trainer")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--clang", default=shutil.which("clang++-19") or "clang++-19")
    p.add_argument("--gxx", default=shutil.which("g++") or "g++")
    a = p.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    prefix = os.path.join(a.work, "prefix")
    run(["cmake", "--install", a.build, "--prefix", prefix])
    src = os.path.join(a.work, "src")
    shutil.copytree(os.path.join(HERE, "project"), src)

    def configure(name, mode, cxx, pch=False, check=True, source=src,
                  extra=(), env=None):
        b = os.path.join(a.work, name)
        cmd = ["cmake", "-S", source, "-B", b, "-G", "Ninja",
               "-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_CXX_COMPILER=" + cxx,
               "-DSONDE_MODE=" + mode, "-DUSE_PCH=" + ("ON" if pch else "OFF"),
               *extra]
        if not check:
            return subprocess.run(cmd, capture_output=True, text=True)
        run(cmd, env=env)
        return b

    builds = {}
    for name, mode, cxx, pch in (("plugin-clang-pch", "plugin", a.clang, True),
                                 ("plugin-clang", "plugin", a.clang, False),
                                 ("rewrite-clang", "rewrite", a.clang, False),
                                 ("rewrite-gxx-pch", "rewrite", a.gxx, True)):
        b = configure(name, mode, cxx, pch)
        out = run(["cmake", "--build", b, "-j", "2"]).stdout
        if out.count("matches nothing") != 1 or UNMATCHED not in out:
            sys.exit("FAIL: %s: expected one '%s', got:\n%s" %
                     (name, UNMATCHED, out))
        if cxx == a.gxx and "clang does not know the flag " \
                "'-fconcepts-diagnostics-depth=2'" not in out:
            sys.exit("FAIL: %s: the g++-only flag was not named:\n%s" %
                     (name, out))
        recs = records(prefix, os.path.join(b, "trainer"),
                       os.path.join(b, "trace"))
        got = counts(recs)
        if got != collections.Counter(EXPECTED):
            sys.exit("FAIL: %s records %s, expected %s" % (name, dict(got),
                                                           EXPECTED))
        builds[name] = (b, recs)
        print("ok: %s records %d events" % (name, sum(got.values())))

    ref_name, (_, ref) = next(iter(builds.items()))
    for name, (_, recs) in builds.items():
        if recs != ref:
            for x, y in zip(ref, recs):
                if x != y:
                    sys.exit("FAIL: %s and %s differ:\n  %s\n  %s" %
                             (ref_name, name, x, y))
            sys.exit("FAIL: %s and %s differ in length" % (ref_name, name))
    print("ok: the four builds record the same events")

    r = configure("plugin-gxx", "plugin", a.gxx, False, check=False)
    if r.returncode == 0 or "loads only into clang" not in " ".join(r.stderr.split()):
        sys.exit("FAIL: plugin mode with g++ configured:\n" + r.stderr)
    print("ok: plugin mode with g++ is a configure error")

    # STRICT: a misspelled selector stops the build, at the spec's line,
    # with the name that exists.
    strict_src = os.path.join(a.work, "src-strict")
    shutil.copytree(src, strict_src)
    with open(os.path.join(strict_src, "probes.yaml")) as f:
        spec = f.read()
    spec = spec.replace('"Model::update"', '"Model::updte"')
    with open(os.path.join(strict_src, "probes.yaml"), "w") as f:
        f.write(spec)
    for mode, cxx in (("plugin", a.clang), ("rewrite", a.gxx)):
        b = configure("strict-" + mode, mode, cxx, source=strict_src,
                      extra=["-DSONDE_STRICT=ON"])
        r = subprocess.run(["cmake", "--build", b, "-j", "2"],
                           capture_output=True, text=True)
        want = ("probes.yaml:8:10: error: selector 'Model::updte' matches "
                "nothing in target trainer; did you mean 'Model::update'?")
        if r.returncode == 0 or want not in r.stdout + r.stderr:
            sys.exit("FAIL: STRICT %s: exit %d, expected '%s':\n%s%s" %
                     (mode, r.returncode, want, r.stdout, r.stderr))
        print("ok: STRICT %s stops at a misspelled selector" % mode)

    # ccache: a second build tree in rewrite mode compiles nothing (the
    # copies live in the build tree; ccache hashes the compiled file's path).
    ccache = shutil.which("ccache")
    if ccache:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("CCACHE_")}
        env["CCACHE_DIR"] = os.path.join(a.work, "ccache")
        for tree in ("cc1", "cc2"):
            b = configure(tree, "rewrite", a.gxx, env=env,
                          extra=["-DCMAKE_CXX_COMPILER_LAUNCHER=" + ccache])
            run([ccache, "-z"], env=env)
            run(["cmake", "--build", b, "-j", "2"], env=env)
        stats = dict(line.split("\t") for line in run(
            [ccache, "--print-stats"], env=env).stdout.splitlines()
            if "\t" in line)
        hits = int(stats.get("direct_cache_hit", 0)) + int(
            stats.get("preprocessed_cache_hit", 0))
        if hits != 3 or int(stats.get("cache_miss", 0)) != 0:
            sys.exit("FAIL: the second rewrite-mode tree: %d ccache hits of 3 "
                     "compiles, %s misses" % (hits, stats.get("cache_miss")))
        print("ok: a second rewrite-mode build tree hits ccache (3 of 3)")

    # The installed binaries find their libraries.
    for d in ("bin", "lib"):
        for f in sorted(os.listdir(os.path.join(prefix, d))):
            path = os.path.join(prefix, d, f)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            r = subprocess.run(["ldd", path], capture_output=True, text=True)
            if "not found" in r.stdout:
                sys.exit("FAIL: %s: %s" % (path, r.stdout))
    print("ok: installed binaries find their libraries")

    # A comment-only edit of the spec changes no plan: rewrite mode
    # regenerates the copies, finds them unchanged and recompiles nothing.
    with open(os.path.join(src, "probes.yaml"), "a") as f:
        f.write("# a comment changes no plan\n")
    for name in ("rewrite-clang", "rewrite-gxx-pch"):
        out = run(["cmake", "--build", builds[name][0], "-j", "2"]).stdout
        if "Building CXX" in out:
            sys.exit("FAIL: %s recompiled after a comment-only spec edit:\n%s"
                     % (name, out))
        print("ok: %s recompiles nothing after a comment-only edit" % name)

    # Editing the spec: the next build picks up a new watch.
    with open(os.path.join(src, "probes.yaml"), "a") as f:
        f.write('  - at: "trainEpoch > Err"\n')
    for name in ("plugin-clang-pch", "rewrite-gxx-pch"):
        b = builds[name][0]
        run(["cmake", "--build", b, "-j", "2"])
        got = counts(records(prefix, os.path.join(b, "trainer"),
                            os.path.join(b, "trace")))
        if got[("watch", "user", "Err")] != 8:
            sys.exit("FAIL: %s after the spec edit records %s" % (name, dict(got)))
        print("ok: %s rebuilt for the edited spec" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
