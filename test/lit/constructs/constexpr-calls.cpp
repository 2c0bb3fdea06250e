// A call of a constexpr function whose value the code may use as a
// constant: the initializer of a const integral variable (usable in
// constant expressions: a template argument, an array bound) or an element
// of a braced initializer (a constant that fits is not narrowing). Wrapped
// in a region it is no longer a constant expression and the build broke;
// such calls are skipped with a note. A call of it elsewhere, one that is
// not constant (`sq(x)`, a lambda's implicitly constexpr operator() over a
// capture), and a const variable from a non-constexpr call, are call sites
// as usual.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "use > *()"
// SPEC:     category: user.call

#include <array>

constexpr int sq(int v) { return v * v; }
int runtime(int v) { return v + 1; }

int use(int x) {
  const int n = sq(3);
  // CHECK: {{^}}  const int n = sq(3);{{$}}
  // DIAG: constexpr-calls.cpp:[[@LINE-2]]:17: warning: probe 'use > *()' skipped: call of constexpr 'sq' initializes a constant or a braced initializer (wrapped, it would no longer be a constant expression) [sonde-constexpr]
  std::array<int, n> a{};
  char c{sq(2)};
  // CHECK: {{^}}  char c{sq(2)};{{$}}
  const int m = runtime(2);
  // CHECK: {{^}}  const int m = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), runtime(2));
  int y = sq(x);
  // CHECK: {{^}}  int y = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), sq(x));
  const int z = sq(x);
  // CHECK: {{^}}  const int z = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), sq(x));
  const int k = [&] { return x * 2; }();
  // CHECK: {{^}}  const int k = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), [&] { return x * 2; }());
  return int(a.size()) + c + m + y + z + k;
}
