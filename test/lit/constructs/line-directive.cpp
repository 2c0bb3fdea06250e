// `#line` changes the presumed line (and file) of what follows: sites take
// the presumed line, as __LINE__ and the compiler's diagnostics do; the
// insertions stay within their physical lines.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "f > b"

int f(int a) {
  int b = a + 1;
  // SITES: watch user b {{.*}}line-directive.cpp:14 f b :int
#line 500 "virtual.cpp"
  b *= 2;
  // CHECK: {{^}}  b *= 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, b);
  // SITES: watch user b {{.*}}line-directive.cpp:500 f b :int
  return b;
}
