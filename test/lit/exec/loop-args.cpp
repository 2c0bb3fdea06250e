// A range-for loop probe with args (or a guard) records the fetch through
// sonde::iterateFetch and the body as a CondIteration that carries the args;
// `context: true` passes them to everything nested.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.cpp --check-prefix=CODE
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train_epoch > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:     args: {step: batch_idx}
// SPEC:     context: true
// SPEC:   - at: "train_epoch > work()"
// SPEC:     category: compute.step
// SPEC:   - at: "main > train_epoch > #loop_item"
// SPEC:     category: data.item

#include <cstdio>
#include <vector>

int work(int v) { return v * 3; }

int train_epoch(const std::vector<int> &data) {
  int batch_idx = 0, sum = 0;
  for (int batch : data) {
    // CODE: {{^}}  { ::sonde::Loop sonde_loop_[[B:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int batch : ::sonde::iterateFetch(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], data)) { ::sonde::CondIteration sonde_iter_[[B]](true, sonde_loop_[[B]], (batch_idx));
    sum += work(batch);
    ++batch_idx;
  }
  for (int item : data)
    sum -= item;
  // CODE: {{^}}  { ::sonde::Loop sonde_loop_[[I:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int item : ::sonde::iterateFetch(::sonde::inFrame(::sonde_ctx::frame_{{[0-9a-f]+}}), sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], data))
  return sum;
}

int main() {
  std::printf("%d\n", train_epoch({1, 2}));
  return 0;
}

// CHECK:      region dataloader/fetch.iter level=0 iter=0 line=32 func=train_epoch
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=32 func=train_epoch args={"step": 0}
// CHECK-NEXT: region compute/step level=1 line=34 func=train_epoch args={"step": 0}
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=1 line=32 func=train_epoch
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=1 line=32 func=train_epoch args={"step": 1}
// CHECK-NEXT: region compute/step level=1 line=34 func=train_epoch args={"step": 1}
// CHECK-NEXT: region data/item.iter level=0 iter=0 line=37 func=train_epoch
// CHECK-NEXT: region data/item.block level=0 iter=0 line=37 func=train_epoch
// CHECK-NEXT: region data/item.iter level=0 iter=1 line=37 func=train_epoch
// CHECK-NEXT: region data/item.block level=0 iter=1 line=37 func=train_epoch
// CHECK-NOT: {{.}}
