// A header included twice (guarded): its functions are not the main
// file's and are not rewritten; calls to them from the main file are call
// sites like any other.
//
// RUN: %spec && %sonde-rewrite --spec %t.yaml %s -- -std=c++17 -I %S/Inputs > %t.cpp 2> %t.err
// RUN: %check-insertions %s %t.cpp
// RUN: %syntax-clang -I %S/Inputs %t.cpp && %syntax-gcc -I %S/Inputs %t.cpp
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 -I %S/Inputs | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "* > header_fn()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > *"

#include "twice.h"
#include "twice.h"

int user(int v) {
  int got = header_fn(v);
  // CHECK: {{^}}  int got = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), header_fn(v)); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, got);
  return got;
}

// SITES-NOT: hv
// SITES: region compute user {{.*}}header-twice.cpp:23 user
// SITES-NOT: hv
