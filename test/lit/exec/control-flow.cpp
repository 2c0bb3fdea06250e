// End to end through control flow: exceptions through regions (RAII closes
// them), early returns, continue and break in loops, range-for over a
// temporary, static locals and structured bindings. Built by clang++ and
// g++; stdout unchanged; records checked exactly.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.clang.dir && env SONDE_OUTPUT=%t.clang.dir %t.clang > %t.clang.out
// RUN: diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.clang.dir --format jsonl | %records | FileCheck %s
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.gcc.dir && env SONDE_OUTPUT=%t.gcc.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.gcc.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "risky"
// SPEC:     category: compute.step
// SPEC:   - at: "scan > #loop_v"
// SPEC:     category: data.item
// SPEC:   - at: "scan(!#loop_v, !!#endloop_v)"
// SPEC:     category: user.body
// SPEC: watches:
// SPEC:   - at: "scan > calls"
// SPEC:   - at: "scan > k"
// SPEC:   - at: "risky > #value"

#include <cstdio>
#include <map>
#include <stdexcept>
#include <vector>

int risky(int v) {
  if (v == 3)
    throw std::runtime_error("three");
  if (v > 4)
    return -v;
  return v;
}

std::vector<int> values() { return {1, 2, 3, 5, 9}; }

int scan() {
  static int calls = 0;
  ++calls;
  int sum = 0;
  for (int v : values()) {
    if (v == 2)
      continue;
    if (v == 9)
      break;
    try {
      sum += risky(v);
    } catch (const std::exception &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  std::map<int, int> m{{7, 8}};
  for (auto [k, val] : m)
    sum += k * val;
  return sum;
}

int main() {
  std::printf("%d\n", scan());
  std::printf("%d\n", scan());
  return 0;
}

// First scan(): the static local is recorded once at its initialization,
// then at ++calls.
// CHECK:      watch user/calls value=0 line=47 func=scan
// CHECK-NEXT: watch user/calls value=1 line=48 func=scan
// v=1: fetch, body, the range !#loop_v..!!#endloop_v, risky() and its value.
// CHECK-NEXT: region data/item.iter level=0 iter=0 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=0 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// CHECK-NEXT: watch user/value value=1 line=41 func=risky
// v=2: continue; the range still closes (its scope ends).
// CHECK-NEXT: region data/item.iter level=0 iter=1 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=1 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// v=3: risky() throws; its region closes as the exception passes.
// CHECK-NEXT: region data/item.iter level=0 iter=2 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=2 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// v=5: the early return's value.
// CHECK-NEXT: region data/item.iter level=0 iter=3 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=3 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// CHECK-NEXT: watch user/value value=-5 line=40 func=risky
// v=9: break.
// CHECK-NEXT: region data/item.iter level=0 iter=4 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=4 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// The structured binding of the second loop.
// CHECK-NEXT: watch user/k value=7 line=62 func=scan
// Second scan(): the same, and no second record of the static's init.
// CHECK-NEXT: watch user/calls value=2 line=48 func=scan
// CHECK-NEXT: region data/item.iter level=0 iter=0 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=0 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// CHECK-NEXT: watch user/value value=1 line=41 func=risky
// CHECK-NEXT: region data/item.iter level=0 iter=1 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=1 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region data/item.iter level=0 iter=2 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=2 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// CHECK-NEXT: region data/item.iter level=0 iter=3 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=3 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: region compute/step level=2 line=36 func=risky
// CHECK-NEXT: watch user/value value=-5 line=40 func=risky
// CHECK-NEXT: region data/item.iter level=0 iter=4 line=50 func=scan
// CHECK-NEXT: region data/item.block level=0 iter=4 line=50 func=scan
// CHECK-NEXT: region user/body level=1 line=50 func=scan
// CHECK-NEXT: watch user/k value=7 line=62 func=scan
// CHECK-NOT: {{.}}
