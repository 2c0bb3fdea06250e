// Lambdas outside function bodies and lambdas as values: lambdas in default
// arguments and in default member initializers belong to no host function
// and are left alone; generic lambdas and lambdas with a template parameter
// list are not hosts either; an immediately-invoked lambda is a call whose
// whole initializer it is (one temporary region), its body untouched.
//
// RUN: %instrument20
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > *"

#include <functional>

int callback(int x, std::function<int(int)> f = [](int v) { return v * 3; }) {
  // CHECK: {{^}}int callback(int x, std::function<int(int)> f = [](int v) { return v * 3; }) { static ::sonde::Site
  int r = f(x);
  return r;
}

struct WithDefaults {
  std::function<int()> f = [] { return 11; };
  // CHECK: {{^}}  std::function<int()> f = [] { return 11; };
  int v = [] { int t = 2; return t * 2; }();
  // CHECK: {{^}}  int v = [] { int t = 2; return t * 2; }();
};

int iife(int n) {
  const int k = [&] { int t = n * 2; return t; }();
  // CHECK: {{^}}  const int k = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), [&] { int t = n * 2; return t; }()); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, k);
  auto tl = []<class T>(T a, T b) { T s = a + b; return s; };
  // CHECK: {{^}}  auto tl = []<class T>(T a, T b) { T s = a + b; return s; };
  auto gen = [](auto... xs) { return (xs + ...); };
  // CHECK: {{^}}  auto gen = [](auto... xs) { return (xs + ...); };
  return k + tl(n, 2) + gen(1, 2);
}
