// Sites that cannot be instrumented safely are skipped with a warning that
// names them: constexpr/consteval functions, coroutines, bodies and
// statements that come from macro expansions. The build never breaks.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %not %sonde-rewrite --strict --spec %t.yaml %s -- -std=c++17 > /dev/null 2> %t.strict
// RUN: FileCheck %s --input-file %t.strict --check-prefix=STRICT
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "sq"
// SPEC:     category: compute
// SPEC:   - at: "from_macro"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "writes > x"

constexpr int sq(int v) { return v * v; }
// CHECK: {{^}}constexpr int sq(int v) { return v * v; }
// DIAG: skipped-sites.cpp:[[@LINE-2]]:15: warning: probe 'sq' skipped: 'sq': function is constexpr [sonde-constexpr]
// STRICT: skipped-sites.cpp:[[@LINE-3]]:15: error: probe 'sq' skipped: 'sq': function is constexpr [sonde-constexpr]

#define BODY { return 1; }
int from_macro() BODY
// CHECK: {{^}}int from_macro() BODY
// DIAG: skipped-sites.cpp:[[@LINE-2]]:5: warning: probe 'from_macro' skipped: 'from_macro': body is a macro expansion [sonde-macro]

#define SET(v, e) v = e
int writes() {
  int x = 0;
  SET(x, 2);
  // CHECK: {{^}}  SET(x, 2);
  // DIAG: skipped-sites.cpp:[[@LINE-2]]:3: warning: probe 'writes > x' skipped: write of 'x' is a macro expansion [sonde-macro]
  x = 3;
  // CHECK: {{^}}  x = 3; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x);
  return x;
}
