// `a < b` through a defaulted `operator<=>` is rewritten by Sema into
// `(a <=> b) < 0`, whose calls are written nowhere (their ranges cover half
// an operator: wrapping them did not compile). Only the operands are
// walked: calls written in them are still probed.
//
// RUN: %instrument20
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG --allow-empty
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "less > *"

#include <compare>

struct Point {
  int x, y;
  auto operator<=>(const Point &) const = default;
  bool operator==(const Point &) const = default;
};

Point make(int v) { return Point{v, v}; }

bool less(Point a, Point b) {
  bool lt = a < b;
  // CHECK: {{^}}  bool lt = a < b; ::sonde::watchBoolAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lt);
  bool ge = make(1) >= b;
  // CHECK: {{^}}  bool ge = ::sonde::call(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return make(1); }) >= b; ::sonde::watchBoolAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, ge);
  bool ne = a != make(2);
  // CHECK: {{^}}  bool ne = a != ::sonde::call(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return make(2); }); ::sonde::watchBoolAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, ne);
  return lt && ge && ne;
}

// DIAG-NOT: warning
