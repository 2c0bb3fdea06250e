// `decltype(auto)` returns: the deduced type is already known where
// `#value` looks, so `return (e);` (a reference: the parentheses make it
// one) passes through passRef and stays a reference, `return w;` of a
// local is watched before the return (NRVO and the deduced type kept), and
// a forwarded call keeps its value category through the call-site comma.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "forward > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > #value"

#include <vector>

decltype(auto) front(std::vector<int> &v) {
  auto &e = v.front();
  return (e);
  // CHECK: {{^}}  return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (e));
}

decltype(auto) value(int v) {
  int w = v + 1;
  return w;
  // CHECK: {{^}}  ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, w); return w;
}

decltype(auto) forward(std::vector<int> &v) { return front(v); }
// CHECK: {{^}}decltype(auto) forward(std::vector<int> &v) {{.*}} return ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], front(v))); }

static_assert(std::is_same<decltype(front(std::declval<std::vector<int> &>())), int &>::value, "");

int use() {
  std::vector<int> v{1};
  forward(v) = 3;
  return v[0] + value(2);
}
