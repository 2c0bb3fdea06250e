// Code that `#include` brings into a function body is not the main file's
// text: its sites are skipped with a note that says so at the #include's
// site (not "a macro expansion"); the rest of the function is instrumented.
//
// RUN: %spec && %sonde-rewrite --spec %t.yaml %s -- -std=c++17 -I %S/Inputs > %t.cpp 2> %t.err
// RUN: %check-insertions %s %t.cpp
// RUN: %syntax-clang -I %S/Inputs %t.cpp && %syntax-gcc -I %S/Inputs %t.cpp
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "f > *"

int f(int start) {
  // CHECK: {{^}}int f(int start) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion
  int total = start;
#include "body.inc"
  // DIAG: body.inc:1:{{[0-9]+}}: warning: probe 'f > *' skipped: write of 'total' is in an included file [sonde-include]
  // DIAG: body.inc:2:{{[0-9]+}}: warning: probe 'f > *' skipped: declaration of 'from_inc' is in an included file [sonde-include]
  total += from_inc;
  // CHECK: {{^}}  total += from_inc; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, total);
  return total;
}
