// Declarations that write: several declarators, static locals, structured
// bindings, variables declared in conditions and range-for variables.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "f > a"
// SPEC:   - at: "f > c"
// SPEC:   - at: "f > calls"
// SPEC:   - at: "f > key"
// SPEC:   - at: "f > n"
// SPEC:   - at: "f > x"
// SPEC:   - at: "f > i"

#include <utility>

int next(int v) { return v - 1; }

int f(int v) {
  // Several declarators: each one with an initializer.
  int a = v, b, c = 3;
  // CHECK: {{^}}  int a = v, b, c = 3; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, a); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, c);
  b = a;
  // A static local is initialized once, and recorded once.
  static int calls = 0;
  // CHECK: {{^}}  static int calls = 0; static const bool sonde_once_[[ONCE:[0-9a-f]+]] = (::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, calls), true); (void)sonde_once_[[ONCE]];
  // Structured bindings.
  auto [key, val] = std::pair<int, int>(a, c);
  // CHECK: {{^}}  auto [key, val] = std::pair<int, int>(a, c); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, key);
  // A variable declared in a condition, in both branches.
  if (int n = next(v))
    b += n;
  else
    b -= n;
  // CHECK: {{^}}  if (int n = next(v))
  // CHECK-NEXT: {{^}}    { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, n); b += n; }
  // CHECK-NEXT: {{^}}  else
  // CHECK-NEXT: {{^}}    { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, n); b -= n; }
  while (int x = next(b)) {
    b = x - 1;
  }
  // CHECK: {{^}}  while (int x = next(b)) { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x);
  int arr[] = {1, 2};
  for (int x : arr)
    b += x;
  // CHECK: {{^}}  for (int x : arr)
  // CHECK-NEXT: {{^}}    { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x); b += x; }
  // A for-init declaration has no statement after it: skipped, with a note.
  for (int i = 0; i < 2; ++i)
    b += i;
  // DIAG: declarations.cpp:[[@LINE-2]]:12: warning: probe 'f > i' skipped: 'i' is declared where no statement can follow (a for-init, an if/switch init or a switch condition) [sonde-unsupported]
  // CHECK: {{^}}  for (int i = 0; i < 2; ++i, ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, i))
  ++calls;
  return b + key + val;
}
