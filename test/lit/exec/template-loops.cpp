// A training loop in a function template (as PyTorch's MNIST example writes
// it: `template <typename DataLoader> void train(..., DataLoader &loader)`)
// records the fetch (`.iter`) and the body (`.block`) of every iteration, in
// every instantiation, as the same loop does in a plain function: over a
// std::vector, an array, a range whose begin() and end() are found by
// argument-dependent lookup only (as a range-for finds them), and a member.
// (plugin/front-doors.cpp runs this case through the plugin too.)
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: not grep warning %t.err
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "Trainer::run > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:     name: member

#include <cstdio>
#include <vector>

namespace data {
/// Iterable only through free begin()/end() found by ADL.
struct Batches {
  int First, Count;
};
struct BatchIt {
  int V;
  int operator*() const { return V; }
  BatchIt &operator++() {
    ++V;
    return *this;
  }
  bool operator!=(const BatchIt &O) const { return V != O.V; }
};
BatchIt begin(const Batches &B) { return {B.First}; }
BatchIt end(const Batches &B) { return {B.First + B.Count}; }
} // namespace data

template <typename DataLoader> int train(const DataLoader &data_loader) {
  int sum = 0;
  for (auto &&batch : data_loader)
    sum += batch;
  return sum;
}

template <class Loader> struct Trainer {
  Loader loader;
  int run() {
    int sum = 0;
    for (int batch : this->loader)
      sum += batch;
    return sum;
  }
};

int main() {
  std::vector<int> v{1, 2};
  int a[1] = {5};
  Trainer<data::Batches> t{{7, 2}};
  int s1 = train(v);
  int s2 = train(a);
  int s3 = train(data::Batches{3, 1});
  int s4 = t.run();
  std::printf("%d %d %d %d\n", s1, s2, s3, s4);
  return 0;
}

// CHECK:      region dataloader/fetch.iter level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=1 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=1 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=49 func=train
// CHECK-NEXT: region dataloader/member.iter level=0 iter=0 line=58 func=Trainer::run
// CHECK-NEXT: region dataloader/member.block level=0 iter=0 line=58 func=Trainer::run
// CHECK-NEXT: region dataloader/member.iter level=0 iter=1 line=58 func=Trainer::run
// CHECK-NEXT: region dataloader/member.block level=0 iter=1 line=58 func=Trainer::run
// CHECK-NOT: {{.}}
