// Loaded by another clang major version, the plugin stops the compile with
// an error that says which clang it needs; it never does nothing silently.
//
// REQUIRES: other-clang
// RUN: %spec
// RUN: %not %other-clang -std=c++17 -fplugin=%plugin-path -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"

int f() { return 1; }

// CHECK: error: sonde-plugin-clang{{[0-9]+}}.so is built for clang {{[0-9]+}} but was loaded into clang {{[0-9]+}}
