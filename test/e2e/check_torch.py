#!/usr/bin/env python3
"""End-to-end: tensors and ATen ops on the mnist example.

Runs, with the same arguments:
  1. mnist (plain), as the reference output;
  2. mnist-stats (examples/mnist/probes-stats.yaml: `summary: stats` watches
     of the loss tensor and the batch every step, libsonde_torch linked by
     sonde_instrument) with SONDE_TORCH_OPS=1;
  3. plain mnist with LD_PRELOAD=libsonde_torch.so and SONDE_TORCH_OPS=1
     (op tracing of a program that knows nothing of sonde);
  4. the same with SONDE_TORCH_OPS=shapes.
and checks: the same stdout every time; the stats watches (one per step,
their shapes, numel, nan/inf, loss min = max = mean); op regions such as
aten::conv2d, aten::addmm and backward nodes, nested in each other; the
multiset of ops of run 2 equal to run 3's (sonde's own stats ran no
recorded op: no recursion); input shapes in run 4.

  check_torch.py --sonde S --plain MNIST --stats MNIST_STATS --torchlib SO
                 --data DIR
"""
import argparse
import collections
import os
import shutil
import subprocess
import tempfile

from checks import check, check_ended, done, export

ap = argparse.ArgumentParser()
for a in ("sonde", "plain", "stats", "torchlib", "data"):
    ap.add_argument("--" + a, required=True)
opt = ap.parse_args()
tmp = tempfile.mkdtemp(prefix="sonde-e2e-torch-")
# 2 epochs of 1000 images (16 steps each, the last of 40 images).
args = [opt.data, "--train-samples", "1000", "--test-samples", "500",
        "--checkpoint", f"{tmp}/model.pt"]
STEPS, LAST = 16, 1000 - 15 * 64


def run(name, binary, env=None):
    out = f"{tmp}/{name}"
    os.makedirs(out)
    e = {k: v for k, v in os.environ.items() if not k.startswith("SONDE_")}
    e.update(env or {}, SONDE_OUTPUT=out)
    p = subprocess.run([binary, *args], cwd=tmp, env=e, capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout[-2000:], p.stderr[-2000:])
        raise SystemExit(f"{name}: exit {p.returncode}")
    return p.stdout, export(opt.sonde, out) if env is not None else []


base, _ = run("plain", opt.plain)
out, stats = run("stats", opt.stats, {"SONDE_TORCH_OPS": "1"})
check(out == base, "stats: stdout identical to the plain build")
out, ops = run("ops", opt.plain, {"LD_PRELOAD": opt.torchlib, "SONDE_TORCH_OPS": "1"})
check(out == base, "LD_PRELOAD ops: stdout identical to the plain build")
out, shapes = run("shapes", opt.plain, {"LD_PRELOAD": opt.torchlib, "SONDE_TORCH_OPS": "shapes"})
check(out == base, "LD_PRELOAD shapes: stdout identical to the plain build")

for name, recs in (("stats", stats), ("ops", ops), ("shapes", shapes)):
    check_ended(name, recs)

# --- The stats watches -----------------------------------------------------
STATS = ["dtype", "device", "shape", "numel", "min", "max", "mean", "std", "norm", "nan", "inf"]
data = [r for r in stats if r["kind"] == "watch" and r["name"] == "data"]
loss = [r for r in stats if r["kind"] == "watch" and r["name"] == "loss"]
check(len(data) == 2 * STEPS, f"data: {len(data)} watches, expected {2 * STEPS}")
check(len(loss) == 2 * STEPS, f"loss: {len(loss)} watches, expected {2 * STEPS}")
for r in data:
    v = r["value"]
    check(list(v) == STATS, f"data: members {list(v)}")
    check(v["dtype"] == "float32" and v["device"] == "cpu", f"data: {v['dtype']} on {v['device']}")
    check(v["nan"] == 0 and v["inf"] == 0, "data: no NaN or Inf")
    check(v["min"] <= v["mean"] <= v["max"] and v["std"] > 0, f"data: min <= mean <= max, std > 0 ({v})")
shapes_seen = [r["value"]["shape"] for r in data]
want = ([[64, 1, 28, 28]] * (STEPS - 1) + [[LAST, 1, 28, 28]]) * 2
check(shapes_seen == want, f"data: batch shapes per step ({shapes_seen[:2]}... {shapes_seen[-2:]})")
check(all(r["value"]["numel"] == (64 if s[0] == 64 else LAST) * 784
          for r, s in zip(data, shapes_seen)), "data: numel = product of the shape")
for r in loss:
    v = r["value"]
    check(v["shape"] == [] and v["numel"] == 1, f"loss: a 0-dim tensor ({v['shape']}, {v['numel']})")
    check(v["min"] == v["max"] == v["mean"] and v["std"] == 0, f"loss: min = max = mean ({v})")
    check(abs(v["norm"] - abs(v["mean"])) < 1e-12, "loss: norm = |value|")
first = [r["value"]["mean"] for r in loss[:STEPS]]
last = [r["value"]["mean"] for r in loss[STEPS:]]
check(sum(last) / len(last) < sum(first) / len(first), "loss: falls from the first epoch to the second")

# --- Op regions ------------------------------------------------------------
def op_regions(recs):
    return [r for r in recs if r["kind"] == "region" and r["cat"] == "torch"]


def op_names(recs):
    return collections.Counter(r["name"] for r in op_regions(recs))


for name, recs in (("stats", stats), ("ops", ops)):
    names = op_names(recs)
    for op in ("aten::conv2d", "aten::addmm", "aten::max_pool2d", "aten::relu", "aten::log_softmax",
               "aten::nll_loss", "aten::add_"):
        check(names[op] > 0, f"{name}: {op} recorded ({names[op]})")
    # 2 epochs x 16 steps x 2 linear layers in training, plus the tests.
    check(names["aten::addmm"] >= 2 * STEPS * 2, f"{name}: aten::addmm per step ({names['aten::addmm']})")
    backward = [n for n in names if n.endswith("Backward0") or n.endswith("Backward1")]
    check("AddmmBackward0" in names and len(backward) >= 5,
          f"{name}: autograd backward nodes recorded ({sorted(backward)[:6]})")
    cats = {r["file"] for r in op_regions(recs)}
    check(cats == {"<aten>"}, f"{name}: op sites say <aten> ({cats})")
    # aten::conv2d calls aten::convolution: op regions nest in each other.
    lv = lambda op: collections.Counter(r["level"] for r in op_regions(recs) if r["name"] == op)
    conv2d, conv = lv("aten::conv2d"), lv("aten::convolution")
    check(conv and min(conv) == min(conv2d) + 1,
          f"{name}: aten::convolution nested inside aten::conv2d (levels {dict(conv2d)}, {dict(conv)})")

sc, oc = op_names(stats), op_names(ops)
diff = {k: (sc[k], oc[k]) for k in set(sc) | set(oc) if sc[k] != oc[k]}
check(not diff, f"the stats watches add no recorded op (differences: {dict(list(diff.items())[:8])})")

conv = [r for r in op_regions(shapes) if r["name"] == "aten::conv2d"]
check(conv and all("shapes" in r.get("args", {}) for r in conv), "shapes: aten::conv2d carries its input shapes")
if conv:
    check(conv[0]["args"]["shapes"][0] == [64, 1, 28, 28] and conv[0]["args"]["shapes"][1] == [10, 1, 5, 5],
          f"shapes: the first conv2d's input and weight shapes ({conv[0]['args']['shapes'][:2]})")
check(not any("shapes" in r.get("args", {}) for r in op_regions(ops)), "ops: no shapes unless asked")

shutil.rmtree(tmp, ignore_errors=True)
done()
