// Nesting levels inside a range-for's fetch (issue 19 item 4): what the
// iterator's advance records (a dataset's `get`, its transform, a watch in
// `get`) nests inside the `.iter` region, one level deeper, and comes out
// after it, before the body's `.block`. The advance that finds the end is
// no iteration: its `.iter` is recorded only because something (`reset`)
// was recorded inside it, which keeps its parent.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
//
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.clang.dir && env SONDE_OUTPUT=%t.clang.dir %t.clang > %t.clang.out
// RUN: diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.clang.dir --format jsonl | %records | FileCheck %s
//
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.gcc.dir && env SONDE_OUTPUT=%t.gcc.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.gcc.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "Dataset::get"
// SPEC:     category: data.item
// SPEC:   - at: "Normalize::apply"
// SPEC:     category: data.preprocess
// SPEC:   - at: "Dataset::reset"
// SPEC:     category: data
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC: watches:
// SPEC:   - at: "Dataset::get > item"

#include <cstdio>

struct Normalize {
  float apply(float x) { return x / 2; }
};

struct Dataset {
  Normalize norm;
  float get(int index) {
    float item = 1.0f + index;
    return norm.apply(item);
  }
  void reset() {}
};

struct Loader {
  Dataset *data;
  int size;
  struct iterator {
    Loader *owner;
    int index;
    float batch;
    iterator &operator++() {
      if (++index < owner->size)
        batch = owner->data->get(index);
      else
        owner->data->reset();
      return *this;
    }
    float operator*() const { return batch; }
    bool operator!=(const iterator &other) const {
      return index != other.index;
    }
  };
  iterator begin() { return {this, 0, size > 0 ? data->get(0) : 0.0f}; }
  iterator end() { return {this, size, 0.0f}; }
};

struct Net {
  float forward(float x) { return 3 * x; }
};

float train(Net &net, Loader &loader) {
  float total = 0;
  for (float batch : loader)
    total += net.forward(batch);
  return total;
}

int main() {
  Dataset data;
  Loader loader{&data, 2};
  Net net;
  std::printf("total %.2f\n", train(net, loader));
  return 0;
}

// Each fetch: `.iter` at the loop's level, the dataset's `get` one deeper
// (with its watch), the transform inside `get` deeper still; then the body.
// CHECK:      region dataloader/fetch.iter level=0 iter=0 line=81 func=train
// CHECK-NEXT: region data/item level=1 line=45 func=Dataset::get
// CHECK-NEXT: watch user/item value=1 line=46 func=Dataset::get
// CHECK-NEXT: region data/preprocess level=2 line=40 func=Normalize::apply
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=81 func=train
// CHECK-NEXT: region compute/forward level=1 line=76 func=Net::forward
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=1 line=81 func=train
// CHECK-NEXT: region data/item level=1 line=45 func=Dataset::get
// CHECK-NEXT: watch user/item value=2 line=46 func=Dataset::get
// CHECK-NEXT: region data/preprocess level=2 line=40 func=Normalize::apply
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=1 line=81 func=train
// CHECK-NEXT: region compute/forward level=1 line=76 func=Net::forward
// The advance that finds the end, around what it recorded; no `.block`.
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=2 line=81 func=train
// CHECK-NEXT: region data/reset level=1 line=49 func=Dataset::reset
// CHECK-NOT: {{.}}
