// Unbraced if/for/while/do bodies get braces around the statement and what
// is inserted after it; nothing else moves.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f > #loop"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "f > s"

int f(int n) {
  int s;
  if (n > 0) s = 1; else s = 2;
  // CHECK: {{^}}  if (n > 0) { s = 1; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); } else { s = 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); }
  for (int i = 0; i < n; ++i) s += i;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[L1:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int i = 0; i < n; ++i) { ::sonde::Iteration sonde_iter_[[L1]](sonde_loop_[[L1]]); s += i; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); } }
  while (s > 100) s /= 2;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[L2:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); while (s > 100) { ::sonde::Iteration sonde_iter_[[L2]](sonde_loop_[[L2]]); s /= 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); } }
  do s++; while (s < 3);
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[L3:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); do { ::sonde::Iteration sonde_iter_[[L3]](sonde_loop_[[L3]]); s++; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); } while (s < 3); }
  if (n)
    if (n > 1)
      s = 3;
  // CHECK: {{^}}      { s = 3; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s); }
  return s;
}
