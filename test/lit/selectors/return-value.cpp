// #value watches the return value at each return. A returned local is
// watched before `return x;`, so NRVO is kept; scalars pass through
// sonde::passValue, references through sonde::passRef; a prvalue of a class
// with its own copy or destructor is skipped (a watch would copy or move
// it; constructs/lifetime-wrappers.cpp has every case).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "*::* > #value"
// SPEC:   - at: "early > #value as out"

#include <string>

struct Big {
  std::string S;
  Big make(int n) {
    Big Local{std::to_string(n)};
    return Local;
    // CHECK: {{^}}    ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, Local); return Local;
  }
  int &ref() { return Count; }
  // CHECK: {{^}}  int &ref() { static ::sonde::SiteTable {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], Count); }
  Big copy() { return Big{S + "x"}; }
  // CHECK: {{^}}  Big copy() { return Big{S + "x"}; }
  // DIAG: return-value.cpp:[[@LINE-2]]:16: warning: probe '*::* > #value' skipped: the returned 'Big' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]
  Big list() { return {S}; }
  // DIAG: return-value.cpp:[[@LINE-1]]:16: warning: probe '*::* > #value' skipped: the returned expression's type is not known here [sonde-unsupported]
  int Count = 0;
};

// Early returns: each return is a site.
int early(int n) {
  if (n < 0)
    return -1;
  // CHECK: {{^}}    return ::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], -1);
  if (n == 0) return 0;
  // CHECK: {{^}}  if (n == 0) return ::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], 0);
  int r = n * 2;
  return r;
  // CHECK: {{^}}  ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, r); return r;
}

// Unchanged: void functions have no value.
void nothing() { return; }
// CHECK: {{^}}void nothing() { return; }
