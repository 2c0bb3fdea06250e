// End to end in C++20: `[[unlikely]] return` with `#value` stays in its
// branch (it once returned unconditionally and changed the result),
// comparisons through a defaulted `<=>` with probed calls in their
// operands, constrained and abbreviated templates. Built by clang++ and
// g++; stdout unchanged; records checked exactly.
//
// STD: c++20
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++20 > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: %cxx -std=c++20 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-clang -std=c++20 -Wall -Wextra -Werror %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.clang.dir && env SONDE_OUTPUT=%t.clang.dir %t.clang > %t.clang.out
// RUN: diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.clang.dir --format jsonl | %records | FileCheck %s
// RUN: %build-gcc -std=c++20 -Wall -Wextra -Werror %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.gcc.dir && env SONDE_OUTPUT=%t.gcc.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.gcc.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > make()"
// SPEC:     category: user.make
// SPEC: watches:
// SPEC:   - at: "clamp > #value"
// SPEC:   - at: "clamp > y"
// SPEC:   - at: "order > *"
// SPEC:   - at: "twice > y"

#include <compare>
#include <concepts>
#include <cstdio>

int clamp(int x) {
  int y = x;
  if (x > 5) [[unlikely]]
    return y;
  while (x-- > 0) [[likely]]
    y += 2;
  return y + 1;
}

struct Point {
  int x, y;
  auto operator<=>(const Point &) const = default;
  bool operator==(const Point &) const = default;
};
Point make(int v) { return Point{v, v + 1}; }

int order(Point a) {
  bool lt = a < make(2);
  bool eq = make(1) == a;
  return lt + 2 * eq;
}

template <std::integral T> T twice(T x) {
  T y = x + x;
  return y;
}

int main() {
  int a = clamp(3);
  int b = clamp(9);
  int c = order(Point{1, 2});
  long d = twice(21L);
  std::printf("%d %d %d %ld\n", a, b, c, d);
  return 0;
}

// clamp(3): the loop under [[likely]] watches y, then the final return.
// CHECK:      watch user/y value=3 line=35 func=clamp
// CHECK-NEXT: watch user/y value=5 line=39 func=clamp
// CHECK-NEXT: watch user/y value=7 line=39 func=clamp
// CHECK-NEXT: watch user/y value=9 line=39 func=clamp
// CHECK-NEXT: watch user/value value=10 line=40 func=clamp
// clamp(9): the early return under [[unlikely]] records its value and returns.
// CHECK-NEXT: watch user/y value=9 line=35 func=clamp
// CHECK-NEXT: watch user/value value=9 line=37 func=clamp
// The calls in the operands of rewritten comparisons are probed.
// CHECK-NEXT: region user/make level=0 line=51 func=order
// CHECK-NEXT: watch user/lt value=true line=51 func=order
// CHECK-NEXT: region user/make level=0 line=52 func=order
// CHECK-NEXT: watch user/eq value=true line=52 func=order
// CHECK-NEXT: watch user/y value=42 line=57 func=twice
// CHECK-NOT: {{.}}
