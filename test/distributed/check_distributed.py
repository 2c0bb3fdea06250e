#!/usr/bin/env python3
"""The data-parallel example (examples/distributed) on 4 ranks of c10d's
Gloo group, launched one way (--via launch: scripts/sonde-launch's
RANK/WORLD_SIZE environment; --via mpirun: Open MPI's OMPI_COMM_WORLD_*),
plain and instrumented, checked rank by rank:

  - every run exits 0 and prints the same parameter sum on every rank, and
    the instrumented ranks the same sum as the plain ones (sonde changes no
    number of the training);
  - one trace per rank, named after its rank, whose Process block says its
    rank, local rank, world size and launcher;
  - exact record counts: per batch of the rank's shard a fetch, a forward,
    a backward and a step; one comm.all_reduce call per gradient bucket per
    step and one per epoch (the loss sum), one broadcast and one barrier,
    each call with its process group's size (4), a comm.wait for each; the same collectives again as Gloo ran them
    (gloo:all_reduce... on its worker thread, with bytes, dtype and element
    count); one checkpoint, on rank 0 only.

Load-proof: the store's port is the kernel's pick (never a fixed one), no
time is compared, and every wait is bounded only by generous timeouts.
"""
import argparse
import collections
import glob
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from checks import check, done, export  # noqa: E402

RANKS = 4
EPOCHS = 2
SAMPLES = 1000
BATCH = 64
BUCKET_KB = 32
# Net's parameters in registration order (conv1, conv2, fc1, fc2: weight,
# bias), as float32 element counts.
PARAMS = [10 * 1 * 5 * 5, 10, 20 * 10 * 5 * 5, 20, 50 * 320, 50, 10 * 50, 10]
TIMEOUT_S = 600


def buckets(cap_bytes):
    """How many buckets dist_mnist's make_buckets makes."""
    n, size = 0, 0
    for p in PARAMS:
        b = 4 * p
        if n == 0 or (cap_bytes and size + b > cap_bytes and size > 0):
            n, size = n + 1, 0
        size += b
    return n


def run(args, prog, out_dir, extra_env):
    """Runs the 4 ranks; returns their stdout."""
    cmd_args = [args.data, "--epochs", str(EPOCHS), "--train-samples", str(SAMPLES),
                "--batch-size", str(BATCH), "--bucket-kb", str(BUCKET_KB),
                "--checkpoint", os.path.join(out_dir, "model.pt")]
    env = dict(os.environ, SONDE_OUTPUT=out_dir, **extra_env)
    for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
              "SLURM_PROCID", "MASTER_PORT"):
        env.pop(k, None)
    if args.via == "launch":
        cmd = [args.launch, "-n", str(RANKS), "--timeout", str(TIMEOUT_S), "--", prog]
    else:
        port = subprocess.run([args.launch, "--free-port"], capture_output=True, text=True,
                              check=True).stdout.strip()
        cmd = [args.mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(RANKS),
               "-x", "SONDE_OUTPUT", "-x", "MASTER_ADDR=127.0.0.1", "-x", f"MASTER_PORT={port}",
               "--timeout", str(TIMEOUT_S), prog]
    p = subprocess.run(cmd + cmd_args, env=env, capture_output=True, text=True, cwd=out_dir,
                       timeout=TIMEOUT_S + 60)
    name = f"{os.path.basename(prog)} via {args.via}"
    check(p.returncode == 0, f"{name}: exit 0 (got {p.returncode}; stderr: {p.stderr[-2000:]})")
    sums = dict(re.findall(r"^rank (\d+) parameter sum (\S+)$", p.stdout, re.M))
    check(sorted(sums) == [str(r) for r in range(RANKS)], f"{name}: every rank finished ({sorted(sums)})")
    check(len(set(sums.values())) == 1, f"{name}: every rank has the same parameters ({sums})")
    return p, sums


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sonde", required=True)
    ap.add_argument("--plain", required=True)
    ap.add_argument("--instrumented", required=True)
    ap.add_argument("--launch", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--via", choices=["launch", "mpirun"], required=True)
    ap.add_argument("--mpirun", default="mpirun")
    args = ap.parse_args()
    # The ranks run in a scratch directory: every path from here.
    for a in ("sonde", "plain", "instrumented", "launch", "data"):
        setattr(args, a, os.path.abspath(getattr(args, a)))

    with tempfile.TemporaryDirectory(prefix="sonde-dist-") as tmp:
        plain_dir = os.path.join(tmp, "plain")
        traces = os.path.join(tmp, "traces")
        os.makedirs(plain_dir)
        os.makedirs(traces)
        _, plain_sums = run(args, args.plain, plain_dir, {})
        check(not glob.glob(os.path.join(plain_dir, "*.sonde")), "plain: no trace")
        _, sums = run(args, args.instrumented, traces, {})
        check(sums == plain_sums, f"instrumented: the parameters of the plain run ({sums} vs {plain_sums})")

        files = sorted(glob.glob(os.path.join(traces, "*.sonde")))
        check(len(files) == RANKS, f"one trace per rank ({files})")
        launcher = "env" if args.via == "launch" else "openmpi"
        shard = math.ceil(SAMPLES / RANKS)
        batches = EPOCHS * math.ceil(shard / BATCH)
        k = buckets(BUCKET_KB * 1024)
        reduces = batches * k + EPOCHS
        for rank in range(RANKS):
            mine = [f for f in files if re.search(rf"-{rank}-\d+\.sonde$", f)]
            check(len(mine) == 1, f"rank {rank}: one file named after the rank ({mine})")
            if len(mine) != 1:
                continue
            recs = export(args.sonde, mine[0])
            start = recs[0]
            check(start["kind"] == "process" and start.get("rank") == rank,
                  f"rank {rank}: the process record says rank {rank} ({start})")
            info = subprocess.run([args.sonde, "info", "--json", mine[0]], capture_output=True,
                                  text=True, check=True).stdout
            check(f'"rank":{rank},"local_rank":{rank},"world_size":{RANKS},"launcher":"{launcher}"'
                  in info, f"rank {rank}: info says rank, local rank, world size, launcher ({info})")
            check(recs[-1]["kind"] == "process" and recs[-1].get("how") == "exit"
                  and recs[-1].get("dropped") == 0, f"rank {rank}: ended by exit, nothing dropped")
            regions = [r for r in recs if r["kind"] == "region"]
            got = collections.Counter(f"{r['cat']}/{r['name']}" for r in regions)
            # The export's cat is the top category; the comm regions'
            # categories are checked in the sites below.
            want = {
                "pipeline/train": 1,
                "pipeline/epoch.block": EPOCHS,
                "dataloader/fetch.iter": batches,
                "dataloader/fetch.block": batches,
                "compute/forward": batches,
                "compute/backward": batches,
                "compute/step": batches,
                "comm/all_reduce": reduces,
                "comm/bcast": 1,
                "comm/barrier": 1,
                "comm/comm.wait": reduces + 2,
                "comm/gloo:all_reduce": reduces,
                "comm/gloo:broadcast": 1,
                "comm/gloo:barrier": 1,
            }
            if rank == 0:
                want["checkpoint/capture"] = 1
            for key, n in want.items():
                check(got[key] == n, f"rank {rank}: {key}: {got[key]} records, expected {n}")
            extra = set(got) - set(want)
            check(not extra, f"rank {rank}: no other regions ({sorted(extra)})")
            dump = subprocess.run([args.sonde, "dump", mine[0]], capture_output=True, text=True,
                                  check=True).stdout
            for site in ("comm.all_reduce/all_reduce", "comm.all_reduce/gloo:all_reduce",
                         "comm.bcast/bcast", "comm.bcast/gloo:broadcast",
                         "comm.barrier/barrier", "comm.barrier/gloo:barrier", "comm/comm.wait"):
                check(f" {site} " in dump, f"rank {rank}: a site {site}")
            # The caller's side is on the training thread, Gloo's on others.
            main_tid = {r["tid"] for r in regions if r["name"] == "train"}
            gloo_tids = {r["tid"] for r in regions if r["name"].startswith("gloo:")}
            check(len(main_tid) == 1 and main_tid.isdisjoint(gloo_tids),
                  f"rank {rank}: Gloo's regions on its own threads ({main_tid}, {gloo_tids})")
            check({r["tid"] for r in regions if r["name"] in ("all_reduce", "comm.wait")} == main_tid,
                  f"rank {rank}: the issue and the wait on the training thread")
            # The caller's side: each call with the size of its group (the
            # spec's `group_size`), the world here.
            for r in regions:
                if r["name"] in ("all_reduce", "bcast", "barrier"):
                    check(r.get("args", {}).get("group_size") == RANKS,
                          f"rank {rank}: {r['name']} on a group of {RANKS} ({r.get('args')})")
            # What Gloo ran: the payload of each all-reduce.
            sizes = collections.Counter()
            for r in regions:
                if r["name"] == "gloo:all_reduce":
                    a = r.get("args", {})
                    check(a.get("dtype") in ("float32", "float64") and a.get("tensors") == 1,
                          f"rank {rank}: an all-reduce of one float tensor ({a})")
                    sizes[(a.get("dtype"), a.get("numel"), a.get("bytes"))] += 1
            check(sizes[("float64", 1, 8)] == EPOCHS, f"rank {rank}: the loss sums ({sizes})")
            grads = sum(n for (d, numel, b), n in sizes.items() if d == "float32" and b == 4 * numel)
            check(grads == batches * k, f"rank {rank}: {batches * k} gradient buckets ({sizes})")
            check(sum(numel for (d, numel, b), n in sizes.items() if d == "float32" for _ in range(n))
                  == batches * sum(PARAMS), f"rank {rank}: every gradient reduced once a step ({sizes})")
    done()


if __name__ == "__main__":
    main()
