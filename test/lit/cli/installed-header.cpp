// An installed sonde-rewrite finds sonde/sonde.h next to itself
// (<prefix>/bin/../include), as the plugin does, not in the source tree it
// was built from. The installed header here has a marker function that the
// spec's `when` calls: it compiles only against that header.
//
// RUN: rm -rf %t.prefix && mkdir -p %t.prefix/bin %t.prefix/include/sonde
// RUN: cp %sonde-rewrite %t.prefix/bin/
// RUN: cp %sonde-include/sonde/*.h %t.prefix/include/sonde/
// RUN: cp -r %sonde-include/sonde/detail %t.prefix/include/sonde/
// RUN: echo 'inline bool sondeInstalledMarker() { return true; }' >> %t.prefix/include/sonde/sonde.h
// RUN: %spec
// RUN: %t.prefix/bin/sonde-rewrite --verify --spec %t.yaml %s -- -std=c++17 > %t.cpp
// RUN: FileCheck %s --input-file %t.cpp
// CHECK: {{^}}int step(int x) { {{.*}}sondeInstalledMarker()
//
// The build tree's tool, with its header in the source tree, rejects it.
// RUN: %not %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > /dev/null 2> %t.err
// RUN: FileCheck %s --input-file %t.err --check-prefix=TREE
// TREE: error: use of undeclared identifier 'sondeInstalledMarker'
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step"
// SPEC:     category: compute
// SPEC:     when: "sondeInstalledMarker()"

int step(int x) { return x + 1; }
