// Declarations in `case`s and under labels. Only statements follow a
// write, so no declaration is added between a jump and its target: a
// declaration without initializer in a case (which a later case may jump
// past) is left alone and its later writes are watched; a label before a
// declaration (C++ allows it) keeps its declaration first; a backward goto
// re-runs the declaration and its watch.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -fsyntax-only -include sonde/sonde.h -I %sonde-include %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > #loop"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "* > *"

int cases(int k) {
  int r = 0;
  switch (k) {
  case 0:
    int tmp;
    // CHECK: {{^}}    int tmp;{{$}}
    tmp = 4;
    // CHECK: {{^}}    tmp = 4; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, tmp);
    r = tmp;
    break;
  case 1: {
    int inner = 5;
    // CHECK: {{^}}    int inner = 5; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, inner);
    r = inner;
    break;
  }
  case 2:
    for (int i = 0; i < 2; ++i)
      r += i;
    // The loop's scope is braced: `default:` below does not jump past it.
    // CHECK: {{^}}    { ::sonde::Loop sonde_loop_{{.*}} for (int i = 0; i < 2; ++i, ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, i)){{$}}
    // CHECK-NEXT: {{^}}      { ::sonde::Iteration {{.*}} } }{{$}}
    [[fallthrough]];
  default:
    tmp = 1;
    // CHECK: {{^}}    tmp = 1; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, tmp);
    r += tmp;
  }
  return r;
}

int labels(int n) {
  int acc = 0;
start:
  int step = n;
  // CHECK: {{^}}start:{{$}}
  // CHECK-NEXT: {{^}}  int step = n; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, step);
  acc += step;
  if (--n > 0)
    goto start;
  if (acc > 100)
    goto done;
  acc += 1;
done:
  return acc;
}
