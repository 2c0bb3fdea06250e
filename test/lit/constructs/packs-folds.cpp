// Parameter packs and fold expressions. A pack parameter cannot be watched
// by one statement: skipped with a note. A write of a local inside a fold
// is an expression: it passes through passRef inside the fold's pattern
// (expanded once per element). A call in a fold's pattern (or any pack
// expansion's) is skipped with a note; a call whose arguments expand a
// pack is wrapped whole (the lambda captures the pack by reference).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > *"

int one(int v) { return v; }

template <class... Ts> int fold_sum(Ts... ts) {
  // DIAG-DAG: packs-folds.cpp:[[@LINE-1]]:43: warning: probe '* > *' skipped: 'ts' is a parameter pack [sonde-unsupported]
  int acc = 0;
  ((acc += ts), ...);
  // CHECK: {{^}}  ((::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], acc += ts)), ...);
  int all = (ts + ... + 0);
  // CHECK: {{^}}  int all = (ts + ... + 0); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, all);
  int ones = (one(ts) + ...);
  // CHECK: {{^}}  int ones = (one(ts) + ...); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, ones);
  // DIAG-DAG: packs-folds.cpp:[[@LINE-2]]:15: warning: probe '* > *()' skipped: call of 'one' is inside a pack expansion [sonde-unsupported]
  return acc + all + ones;
}

template <class... Ts> int forward_all(Ts &&...ts) {
  int n = sizeof...(ts);
  // CHECK: {{^}}  int n = sizeof...(ts); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, n);
  return n + fold_sum(ts...);
  // CHECK: {{^}}  return n + ::sonde::call(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return fold_sum(ts...); });
}

int use() { return forward_all(1, 2, 3); }
