// C++20 templates: constrained templates, requires-clauses, abbreviated
// function templates (`auto` parameters), `auto` non-type parameters and
// explicit(bool) constructors are instrumented once, in the pattern.
// `#value` needs the return type: in an abbreviated template returning
// `auto` it is not known, and the return is skipped with a note; a
// constrained `T` return is dependent, skipped too.
//
// RUN: %instrument20
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "* > *"
// SPEC:   - at: "* > #value"

#include <concepts>
#include <type_traits>

template <class T>
concept Number = std::is_arithmetic_v<T>;

template <Number T> T twice(T x) {
  // CHECK: {{^}}template <Number T> T twice(T x) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion {{.*}} ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x);
  T y = x + x;
  // CHECK: {{^}}  T y = x + x; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y);
  return y;
}

template <class T>
  requires Number<T>
T thrice(T x) {
  T y = x * 3;
  return y;
  // CHECK: {{^}}  ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y); return y;
}

auto sum(auto x, auto y) {
  auto s = x + y;
  // CHECK: {{^}}  auto s = x + y; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s);
  return s + 0;
  // CHECK: {{^}}  return s + 0;
  // DIAG: templates20.cpp:[[@LINE-2]]:3: warning: probe '* > #value' skipped: the returned expression's type is not known here [sonde-unsupported]
}

int integral(std::integral auto x) {
  int r = 0;
  r += x;
  return r + 1;
  // CHECK: {{^}}  return ::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], r + 1);
}

template <auto N> int scaled(int v) {
  int out = v * N;
  // CHECK: {{^}}  int out = v * N; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, out);
  return out;
}

struct Flag {
  template <class T>
  explicit(!std::is_same_v<T, bool>) Flag(T v) : on(v != 0) {}
  // CHECK: {{^}}  explicit(!std::is_same_v<T, bool>) Flag(T v) : on(v != 0) { static ::sonde::SiteTable {{.*}}\nFlag::Flag\n{{.*}} ::sonde::InsertedRegion
  bool on;
};

int use() {
  Flag f(3);
  Flag g = true;
  return twice(2) + thrice(3) + sum(1, 2) + integral(4) + scaled<3>(2) + f.on +
         g.on;
}
