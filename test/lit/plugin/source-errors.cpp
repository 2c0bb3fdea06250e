// A source with errors is not instrumented: the compiler reports its
// errors on the user's own text, at the user's lines and columns.
//
// RUN: %spec
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "broken"
// SPEC: watches:
// SPEC:   - at: "broken > x"

int broken(int x) { x = 2; return x + undeclared; }
// CHECK: source-errors.cpp:[[@LINE-1]]:39: error: use of undeclared identifier 'undeclared'
// CHECK-NEXT: {{^ *}}[[@LINE-2]] | int broken(int x) { x = 2; return x + undeclared; }{{$}}
// CHECK-NOT: sonde
// CHECK: 1 error generated.
