#!/usr/bin/env python3
"""`sonde live` end to end (docs/live.md), against programs that are still
running. Load-proof: the program under watch never runs ahead of the test
(live-steps waits for a go file after each step; the mnist example is
stopped with SIGSTOP while the screen is read), and every wait is a poll
with a generous bound, never a sleep that assumes a speed.

  check_live.py growing SONDE LIVE_STEPS
  check_live.py nan SONDE LIVE_STEPS
  check_live.py tmux SONDE MNIST_SONDE MNIST_DATA
  check_live.py keys SONDE
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

BOUND = 120  # seconds any one wait may take on a loaded machine


def fail(msg):
    sys.exit("check_live: FAIL: " + msg)


def wait_for(what, test, bound=BOUND):
    until = time.monotonic() + bound
    while time.monotonic() < until:
        v = test()
        if v:
            return v
        time.sleep(0.05)
    fail(f"waited {bound} s for {what}")


class Lines:
    """The lines a process prints, collected as they come."""

    def __init__(self, stream):
        self.lines, self.lock = [], threading.Lock()
        self.thread = threading.Thread(target=self.read, args=(stream,),
                                       daemon=True)
        self.thread.start()

    def read(self, stream):
        for line in stream:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def copy(self):
        with self.lock:
            return list(self.lines)


def growing(sonde, steps_bin):
    """--jsonl and --plain follow a trace that grows one step at a time:
    step k's records are printed while the program waits before step k+1."""
    tmp = tempfile.mkdtemp(prefix="sonde-live-growing-")
    traces, go = os.path.join(tmp, "traces"), os.path.join(tmp, "go")
    os.mkdir(go)
    steps = 5
    jsonl = subprocess.Popen([sonde, "live", "--jsonl", traces],
                             stdout=subprocess.PIPE, text=True)
    plain = subprocess.Popen([sonde, "live", "--plain", "--interval", "0.2",
                              traces], stdout=subprocess.PIPE, text=True)
    jl, pl = Lines(jsonl.stdout), Lines(plain.stdout)
    prog = subprocess.Popen([steps_bin, str(steps), "--go", go,
                             "--steps-per-epoch", "2"],
                            env=dict(os.environ, SONDE_OUTPUT=traces),
                            stdout=subprocess.PIPE, text=True)
    pr = Lines(prog.stdout)
    try:
        for k in range(steps):
            wait_for(f"the program's step {k}",
                     lambda: f"step {k}" in pr.copy())
            epoch, step = k // 2 + 1, k % 2

            def loss_line():
                for line in jl.copy():
                    r = json.loads(line)
                    if r.get("name") == "loss" and \
                            r["args"] == {"epoch": epoch, "step": step}:
                        return r
            r = wait_for(f"--jsonl to print step {k}'s loss while the "
                         "program waits", loss_line)
            if abs(r["value"] - 1 / (k + 1)) > 1e-12:
                fail(f"step {k}: loss {r['value']}, expected {1 / (k + 1)}")
            if prog.poll() is not None:
                fail("the program ended before its go file")
            want = f"epoch {epoch}  step {step} steps {k + 1} | loss " \
                   f"{1 / (k + 1):.4f}"
            wait_for(f"--plain to show '{want}'",
                     lambda: any(want in line for line in pl.copy()))
            open(os.path.join(go, f"go-{k}"), "w").close()
        for p, name in ((prog, "program"), (jsonl, "live --jsonl"),
                        (plain, "live --plain")):
            try:
                rc = p.wait(timeout=BOUND)
            except subprocess.TimeoutExpired:
                fail(f"{name} did not exit after the program ended")
            if rc != 0:
                fail(f"{name} exited with {rc}")
        jl.thread.join(BOUND)
        pl.thread.join(BOUND)
        recs = [json.loads(line) for line in jl.copy()]
        kinds = [(r["kind"], r.get("event", r.get("name"))) for r in recs]
        expect = [("process", "start")]
        for _ in range(steps):
            expect += [("region", "data"), ("region", "forward"),
                       ("watch", "loss"), ("region", "train.step")]
        expect.append(("process", "end"))
        if kinds != expect:
            fail(f"--jsonl records {kinds}, expected {expect}")
        if recs[-1].get("how") != "exit":
            fail(f"the end record: {recs[-1]}")
        last = pl.copy()[-1]
        if f"steps {steps}" not in last or "0/1 running" not in last:
            fail(f"--plain's last line: {last}")
        print(f"growing: {len(recs)} records followed step by step; "
              f"{len(pl.copy())} plain lines")
    finally:
        for p in (prog, jsonl, plain):
            if p.poll() is None:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def nan(sonde, steps_bin):
    """--fail-on "loss: nan" stops with exit 3 at the step whose loss is
    NaN, naming the step and the site, while the program still runs."""
    tmp = tempfile.mkdtemp(prefix="sonde-live-nan-")
    traces, go = os.path.join(tmp, "traces"), os.path.join(tmp, "go")
    os.mkdir(go)
    for k in range(17):  # the steps before the NaN run freely
        open(os.path.join(go, f"go-{k}"), "w").close()
    prog = subprocess.Popen([steps_bin, "30", "--go", go, "--nan-at", "17",
                             "--steps-per-epoch", "10"],
                            env=dict(os.environ, SONDE_OUTPUT=traces),
                            stdout=subprocess.DEVNULL)
    try:
        live = subprocess.run([sonde, "live", "--plain", "--fail-on",
                               "loss: nan|inf", "--fail-on", "loss > 2",
                               traces], capture_output=True, text=True,
                              timeout=BOUND)
        if live.returncode != 3:
            fail(f"exit {live.returncode}, expected 3; stderr: {live.stderr}")
        if prog.poll() is not None:
            fail("the program ended: the NaN was not caught while it ran")
        msg = live.stderr
        for want in ("--fail-on 'loss: nan|inf' holds: loss = nan",
                     "at epoch 2, step 7", "recorded at LiveSteps.cpp:43"):
            if want not in msg:
                fail(f"'{want}' not in: {msg}")
        rec = json.loads(msg.strip().splitlines()[-1])
        if rec["name"] != "loss" or rec["args"] != {"epoch": 2, "step": 7}:
            fail(f"the record printed: {rec}")
        print("nan: " + msg.splitlines()[0])
    finally:
        prog.kill()
        prog.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def tmux(sonde, mnist, data):
    """The dashboard in an 80x24 tmux pane while the mnist example trains:
    the step and the loss shown advance, and sonde live exits when the
    training ends."""
    if not shutil.which("tmux"):
        print("tmux is not installed (scripts/install-deps installs it); "
              "skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="sonde-live-tmux-")
    traces, rc_file = os.path.join(tmp, "traces"), os.path.join(tmp, "rc")
    session = f"sonde-live-{os.getpid()}"
    # A server of its own: a user's tmux server keeps its own environment.
    tm = ["tmux", "-L", session]
    env = dict(os.environ, SONDE_OUTPUT=traces)
    subprocess.run([*tm, "new-session", "-d", "-s", session, "-x", "80",
                    "-y", "24", f"{sonde} live {traces}; echo $? > {rc_file}; "
                    "sleep 600"], check=True, env=env)
    prog = None
    try:
        def screen():
            return subprocess.run([*tm, "capture-pane", "-p", "-t",
                                   session], capture_output=True, text=True,
                                  check=True).stdout

        def shown():
            s = screen()
            m = re.search(r"epoch (\d+)  step (\d+)\s+\((\d+) steps seen\)", s)
            loss = re.search(r"^  loss\s+(\S+)", s, re.M)
            return (int(m.group(3)), loss.group(1), s) if m and loss else None
        prog = subprocess.Popen([mnist, data, "--epochs", "2", "--checkpoint",
                                 os.path.join(tmp, "model.pt")], env=env,
                                cwd=tmp, stdout=subprocess.DEVNULL)
        # Training runs in slices of 0.2 s; between them it is stopped
        # (SIGSTOP: its writer too) while the screen catches up with what
        # was written and is read. However fast or slow the machine, the
        # screen is read while the process still runs, three times with
        # more steps and another loss each time.
        seen, until = [], time.monotonic() + 600
        while len(seen) < 3:
            if time.monotonic() > until:
                fail("600 s without three readings of the dashboard")
            prog.send_signal(signal.SIGCONT)
            time.sleep(0.2)
            prog.send_signal(signal.SIGSTOP)
            if prog.poll() is not None:
                fail("training ended before the dashboard showed its step "
                     f"and loss advance three times (seen: {seen})")
            prev = seen[-1] if seen else (0, None, "")
            catch_up = time.monotonic() + 10
            while time.monotonic() < catch_up:
                v = shown()
                if v and v[0] > prev[0] and v[1] != prev[1]:
                    if "1 running" not in v[2]:
                        fail("the dashboard does not say the process "
                             "runs:\n" + v[2])
                    seen.append(v)
                    break
                time.sleep(0.1)
        prog.send_signal(signal.SIGCONT)
        if prog.wait(timeout=600) != 0:
            fail(f"the mnist example exited with {prog.returncode}")
        wait_for("sonde live to exit when training ended",
                 lambda: os.path.exists(rc_file) and
                 open(rc_file).read().strip())
        rc = open(rc_file).read().strip()
        final = screen()
        if rc != "0":
            fail(f"sonde live exited with {rc}:\n{final}")
        if "every process ended" not in final or "126 steps seen" not in final:
            fail("the last screen:\n" + final)
        # The rates line: the example's spec gives its steps an item count.
        r = re.search(r"^rates   train (\d+)/s  loading (\d+)/s  compute "
                      r"(\d+)/s", final, re.M)
        if not r or min(int(x) for x in r.groups()) <= 0:
            fail("no positive rates on the last screen:\n" + final)
        if any(len(line) > 80 for line in final.splitlines()):
            fail("a line wider than 80 columns")
        print("tmux: steps and loss shown while training: " +
              ", ".join(f"{n} steps loss {l}" for n, l, _ in seen))
        print(final)
    finally:
        if prog and prog.poll() is None:
            prog.send_signal(signal.SIGCONT)
            prog.kill()
        subprocess.run([*tm, "kill-server"],
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def rates(sonde, mnist, data):
    """--fail-on on a training rate: a bound no machine reaches holds on
    the first refresh with steps after the warm-up; sonde live exits 3
    and names the rate. The training then goes on without it."""
    tmp = tempfile.mkdtemp(prefix="sonde-live-rates-")
    traces = os.path.join(tmp, "traces")
    os.makedirs(traces)
    env = dict(os.environ, SONDE_OUTPUT=traces)
    # sonde live first, on the empty directory: the run's file is new to
    # it however late the training starts or however fast it ends.
    live = subprocess.Popen([sonde, "live", "--plain", "--interval", "0.2",
                             "--fail-on", "rate.train > 0",
                             "--fail-on", "rate.train < 1e15", traces],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    prog = None
    try:
        wait_for("sonde live to wait for trace files",
                 lambda: live.poll() is not None or
                 "waiting for trace files" in
                 (live.stdout.readline() or ""))
        prog = subprocess.Popen([mnist, data, "--epochs", "1", "--checkpoint",
                                 os.path.join(tmp, "model.pt")], env=env,
                                cwd=tmp, stdout=subprocess.DEVNULL)
        out, err = live.communicate(timeout=600)
        if live.returncode != 3:
            fail(f"sonde live exited {live.returncode}, not 3:\n{out}\n{err}")
        m = re.search(r"--fail-on 'rate.train > 0' holds: rate.train = "
                      r"([0-9.]+) items/s over the steps of the last "
                      r"interval \((\d+) steps after the warm-up", err)
        if not m or float(m.group(1)) <= 0 or int(m.group(2)) < 1:
            fail("the message does not name the rate:\n" + err)
        if prog.wait(timeout=600) != 0:
            fail(f"the mnist example exited with {prog.returncode}")
        print("rates: " + err.strip())
    finally:
        for p in (live, prog):
            if p and p.poll() is None:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def keys(sonde):
    """q and Ctrl-C end the dashboard (exit 0), with the cursor shown again
    and the terminal's echo back."""
    if not shutil.which("tmux"):
        print("tmux is not installed (scripts/install-deps installs it); "
              "skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="sonde-live-keys-")
    tm = []
    try:
        for n, key in enumerate(("q", "C-c")):
            # A server per key: one being killed may not take a new session.
            session = f"sonde-live-keys-{os.getpid()}-{n}"
            tm = ["tmux", "-L", session]
            rc_file = os.path.join(tmp, f"rc-{key}")
            subprocess.run([*tm, "new-session", "-d", "-s", session, "-x",
                            "80", "-y", "24",
                            f"{sonde} live {tmp}/none; echo $? > {rc_file}; "
                            # Renamed when whole: the redirection makes the
                            # file before stty writes it, and a test that
                            # read it then saw an empty file (a loaded CI).
                            f"stty -a > {rc_file}.part; "
                            f"mv {rc_file}.part {rc_file}.stty; sleep 600"],
                           check=True)

            def screen():
                return subprocess.run([*tm, "capture-pane", "-p", "-t",
                                       session], capture_output=True,
                                      text=True, check=True).stdout
            wait_for("the dashboard", lambda: "waiting for trace files in"
                     in screen() and "q or Ctrl-C quits" in screen())
            subprocess.run([*tm, "send-keys", "-t", session, key],
                           check=True)
            wait_for(f"sonde live to exit on {key}",
                     lambda: os.path.exists(rc_file + ".stty"))
            rc = open(rc_file).read().strip()
            if rc != "0":
                fail(f"exit {rc} on {key}")
            stty = open(rc_file + ".stty").read()
            if " echo " not in f" {stty} " or "-icanon" in stty:
                fail(f"the terminal was not put back after {key}: {stty}")
            subprocess.run([*tm, "kill-server"], capture_output=True)
        print("keys: q and Ctrl-C end the dashboard, terminal restored")
    finally:
        if tm:
            subprocess.run([*tm, "kill-server"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    args = [os.path.abspath(a) if os.path.exists(a) else a
            for a in sys.argv[2:]]
    {"growing": growing, "nan": nan, "tmux": tmux, "keys": keys,
     "rates": rates}[mode](*args)
