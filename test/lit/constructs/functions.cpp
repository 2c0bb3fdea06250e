// Regions over the function shapes of point 5: noexcept, auto return types,
// constructors with init lists, function-try-blocks, destructors, lambdas
// (their own bodies are not hosts), goto and switch fallthrough.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "Ckpt::*"
// SPEC:     category: checkpoint.capture
// SPEC:   - at: "fast"
// SPEC:     category: compute
// SPEC:   - at: "deduced"
// SPEC:     category: compute
// SPEC:   - at: "jumps"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "jumps > state"
// SPEC:   - at: "lambdas > total"

#include <stdexcept>

struct Ckpt {
  Ckpt(int n) : size(n), data(new int[n]) {}
  // CHECK: {{^}}  Ckpt(int n) : size(n), data(new int[n]) { static ::sonde::SiteTable {{.*}}\nCkpt::Ckpt\n{{.*}} ::sonde::InsertedRegion {{.*}}}
  Ckpt() try : size(0), data(nullptr) {
    // CHECK: {{^}}  Ckpt() try : size(0), data(nullptr) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion
    check();
  } catch (...) {
    throw;
  }
  ~Ckpt() { delete[] data; }
  // CHECK: {{^}}  ~Ckpt() { static ::sonde::SiteTable {{.*}}\nCkpt::~Ckpt\n{{.*}} delete[] data; }
  void check() {}
  int size;
  int *data;
};

int fast(int x) noexcept { return x + 1; }
// CHECK: {{^}}int fast(int x) noexcept { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion {{.*}} return x + 1; }

auto deduced(int x) { return x * 2.0; }
// CHECK: {{^}}auto deduced(int x) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion {{.*}} return x * 2.0; }

int jumps(int n) {
  int state = 0;
again:
  switch (n) {
  case 0:
    state = 1;
    // CHECK: {{^}}    state = 1; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, state);
    [[fallthrough]];
  case 1:
    state += 2;
    // CHECK: {{^}}    state += 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, state);
    break;
  default:
    if (--n > 1)
      goto again;
  }
  return state;
}

int lambdas(int n) {
  int total = 0;
  auto add = [&](int v) { total += v; };
  // Unchanged: a write inside a lambda is the lambda's, not lambdas()'s.
  // CHECK: {{^}}  auto add = [&](int v) { total += v; };
  add(n);
  total *= 2;
  // CHECK: {{^}}  total *= 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, total);
  return total;
}
