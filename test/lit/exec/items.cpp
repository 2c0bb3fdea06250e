// `items:` records how many items a region processed, under the protocol's
// arg name (sonde.items), through sonde::itemCount: a container counts its
// size(), a tensor-like value (dim() and size(0)) its first dimension, a
// number itself. The count is the region's own even with `context: true`:
// nested records do not carry it. `sonde summary` turns it into rates.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.cpp --check-prefix=CODE
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
// RUN: %sonde-trace summary %t.dir --warmup 1 | FileCheck %s --check-prefix=SUMMARY
// RUN: %sonde-trace summary %t.dir --warmup 0 --json | FileCheck %s --check-prefix=JSON
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train_epoch > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:     args: {step: batch_idx}
// SPEC:     items: "batch"
// SPEC:     context: true
// SPEC:   - at: "train_epoch > work()"
// SPEC:     category: compute.step
// SPEC:   - at: "evaluate"
// SPEC:     category: pipeline.evaluate
// SPEC:     items: "input"
// SPEC:   - at: "scale"
// SPEC:     category: compute.forward
// SPEC:     items: "n"

#include <cstdint>
#include <cstdio>
#include <vector>

// What sonde::itemCount takes for a tensor: dim(), size(0), defined().
struct Tensorish {
  std::vector<int64_t> shape;
  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  int64_t size(int64_t d) const { return shape.at(static_cast<size_t>(d)); }
  bool defined() const { return true; }
};

int work(int v) { return v * 3; }

int scale(int v, long n) { return static_cast<int>(v * n); }

int evaluate(const Tensorish &input) { return static_cast<int>(input.dim()); }

int train_epoch(const std::vector<std::vector<int>> &data) {
  int batch_idx = 0, sum = 0;
  for (const std::vector<int> &batch : data) {
    // CODE: {{^}}  { ::sonde::Loop sonde_loop_[[B:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (const std::vector<int> &batch : ::sonde::iterateFetch(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], data)) { ::sonde::CondIteration sonde_iter_[[B]](true, sonde_loop_[[B]], (batch_idx), ::sonde::itemCount((batch)));
    for (int v : batch)
      sum += work(v);
    ++batch_idx;
  }
  return sum;
}

int main() {
  std::printf("%d\n", train_epoch({{1, 2, 3}, {4, 5}, {6}}));
  std::printf("%d\n", evaluate(Tensorish{{32, 1, 28, 28}}));
  std::printf("%d\n", scale(2, 7));
  return 0;
}

// CHECK:      region dataloader/fetch.iter level=0 iter=0 line=54 func=train_epoch
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=54 func=train_epoch args={"sonde.items": 3, "step": 0}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 0}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 0}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 0}
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=1 line=54 func=train_epoch
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=1 line=54 func=train_epoch args={"sonde.items": 2, "step": 1}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 1}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 1}
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=2 line=54 func=train_epoch
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=2 line=54 func=train_epoch args={"sonde.items": 1, "step": 2}
// CHECK-NEXT: region compute/step level=1 line=57 func=train_epoch args={"step": 2}
// CHECK-NEXT: region pipeline/evaluate level=0 line=50 func=evaluate args={"sonde.items": 32}
// CHECK-NEXT: region compute/forward level=0 line=48 func=scale args={"sonde.items": 7}
// CHECK-NOT: {{.}}

// Five steps (the three batches, evaluate, scale): 6 + 32 + 7 items; the
// first is warm-up.
// SUMMARY:      steps      5 done, 45 items (warm-up: the first 1 of each process, shown apart)
// SUMMARY-NEXT: items/s    train {{[0-9.]+}} | loading {{[0-9.]+}} | compute {{[0-9.]+}}
// SUMMARY-NEXT: time       {{.*}} (self time)
// SUMMARY:      rates (items/s) steps items train loading compute
// SUMMARY-NEXT: warm-up (1) 1 3 {{[0-9.]+ [0-9.]+ [0-9.]+$}}
// SUMMARY-NEXT: run 4 42 {{[0-9.]+ [0-9.]+ [0-9.]+$}}

// JSON: {"rates":{"warmup_steps":0,"steps":5,"unfinished":0,"warmup":{"steps":0,"items":0,"train_ns":0,"loading_ns":0,"compute_ns":0,"train":null,"loading":null,"compute":null},"run":{"steps":5,"items":45,
