// Structured bindings of bit-fields: a write as a statement is watched
// after it (its writer, watchUIntAt here, takes the value; watchAt would
// take a const reference, which a bit-field binds through a temporary); a
// write inside an expression cannot pass through passRef (no reference
// binds a bit-field): skipped with a note, where it once failed to compile.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "f > *"

struct Bits {
  unsigned lo : 4;
  unsigned hi : 4;
};

int f() {
  Bits b{1, 2};
  auto [lo, hi] = b;
  // CHECK: {{^}}  auto [lo, hi] = b; ::sonde::watchUIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lo); ::sonde::watchUIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, hi);
  lo = 3;
  // CHECK: {{^}}  lo = 3; ::sonde::watchUIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lo);
  int z = (hi = 5) + lo;
  // CHECK: {{^}}  int z = (hi = 5) + lo; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, z);
  // DIAG: bitfields.cpp:[[@LINE-2]]:15: warning: probe 'f > *' skipped: 'hi' is a bit-field written inside an expression [sonde-unsupported]
  auto &[rlo, rhi] = b;
  int q = (rhi += 6);
  // CHECK: {{^}}  int q = (rhi += 6); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, q);
  // DIAG: bitfields.cpp:[[@LINE-2]]:16: warning: probe 'f > *' skipped: 'rhi' is a bit-field written inside an expression [sonde-unsupported]
  return z + q + rlo + b.lo;
}
