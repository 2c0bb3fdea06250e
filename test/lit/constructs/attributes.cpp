// Statements under attributes: `if (c) [[unlikely]] return x;` has the
// return as its body. What goes before or after it is braced inside the
// attributes, so it stays in the branch (it once landed after the `if`,
// and `#value` turned a conditional return into an unconditional one).
// Loop bodies under `[[likely]]` get their iteration there too.
//
// RUN: %instrument20
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %cxx -std=c++20 -Wall -Wextra -Werror -fsyntax-only -include sonde/sonde.h -I %sonde-include %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f > #loop"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "f > #value"
// SPEC:   - at: "f > y"
// SPEC:     when: "y > 0"

int f(int x) {
  int y = x;
  if (x > 5) [[unlikely]]
    return y;
  // CHECK: {{^}}    { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y); return y; }
  else [[likely]]
    y = 2;
  // CHECK: {{^}}    { y = 2; if ((y > 0)) ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y); }
  while (x-- > 0) [[likely]]
    y += 2;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[L:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); while (x-- > 0) {{\[\[likely\]\]}}
  // CHECK: {{^}}    { ::sonde::Iteration sonde_iter_[[L]](sonde_loop_[[L]]); y += 2; if ((y > 0)) ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y); } }
  switch (y) {
  [[likely]] case 4:
    y = 5;
    // CHECK: {{^}}    y = 5; if ((y > 0)) ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y);
    [[fallthrough]];
  default:
    break;
  }
  [[maybe_unused]] int z = y;
  return y + 1;
  // CHECK: {{^}}  return ::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], y + 1);
}
