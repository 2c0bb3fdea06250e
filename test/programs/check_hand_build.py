#!/usr/bin/env python3
"""A hand build of a program using sonde/torch.h, as docs/runtime.md says:

    g++ ... $(pkg-config --cflags --libs sonde-torch)

with --as-needed, which dropped libsonde_torch from `-lsonde_torch` (issue 12
item 6). The program must link libsonde_torch, turn op tracing on, and say
nothing on stderr.

usage: check_hand_build.py CXX PKGCONFIG_DIR SOURCE WORKDIR
"""
import os
import shlex
import subprocess
import sys

cxx, pc_dir, source, work = sys.argv[1:5]
env = dict(os.environ, PKG_CONFIG_PATH=pc_dir)
env.pop("PKG_CONFIG_LIBDIR", None)
flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sonde-torch"],
                       env=env, capture_output=True, text=True)
if flags.returncode != 0:
    sys.exit("FAIL: pkg-config sonde-torch: " + flags.stderr.strip())
os.makedirs(work, exist_ok=True)
exe = os.path.join(work, "torch-hand-built")
cmd = [cxx, "-std=c++17", "-Wl,--as-needed", source, "-o", exe] + \
      shlex.split(flags.stdout)
print(" ".join(cmd))
build = subprocess.run(cmd, capture_output=True, text=True)
if build.returncode != 0:
    sys.exit("FAIL: the hand build failed:\n" + build.stderr)
needed = subprocess.run(["readelf", "-d", exe], capture_output=True, text=True)
if "libsonde_torch.so" not in needed.stdout:
    sys.exit("FAIL: libsonde_torch is not a NEEDED library of the program")
out_dir = os.path.join(work, "traces")
os.makedirs(out_dir, exist_ok=True)
run = subprocess.run([exe], capture_output=True, text=True,
                     env=dict(os.environ, SONDE_OUTPUT=out_dir))
if run.returncode != 0 or run.stdout.strip() != "ops on":
    sys.exit("FAIL: exit %d, stdout %r, stderr %r" %
             (run.returncode, run.stdout, run.stderr))
if run.stderr:
    sys.exit("FAIL: the program said on stderr: " + run.stderr)
# A SONDE_TORCH_OPS value libsonde_torch does not know is said, once.
bad = subprocess.run([exe], capture_output=True, text=True,
                     env=dict(os.environ, SONDE_OUTPUT=out_dir,
                              SONDE_TORCH_OPS="yes"))
expected = "sonde: SONDE_TORCH_OPS=yes is not 0, 1 or 'shapes'; using 0\n"
if bad.stderr != expected:
    sys.exit("FAIL: SONDE_TORCH_OPS=yes said %r" % bad.stderr)
print("ok")
