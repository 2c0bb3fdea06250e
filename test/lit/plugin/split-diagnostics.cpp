// The split compile's child parses the rest of the file silently: a
// warning or an error in it is reported once, by the real compile, on the
// user's own text. A file with an error is not instrumented.
//
// RUN: %spec
// RUN: %not %cxx -std=c++17 -Wall %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "warned"
// SPEC:   - at: "broken"

#include <vector>

int warned() { int unused = 1; return 0; }
// CHECK: split-diagnostics.cpp:[[@LINE-1]]:20: warning: unused variable 'unused'
// CHECK-NEXT: {{^ *}}[[@LINE-2]] | int warned() { int unused = 1; return 0; }{{$}}
// CHECK-NOT: unused variable
int broken(std::vector<int> V) { return V.size() + undeclared; }
// CHECK: split-diagnostics.cpp:[[@LINE-1]]:52: error: use of undeclared identifier 'undeclared'
// CHECK-NEXT: {{^ *}}[[@LINE-2]] | int broken(std::vector<int> V) { return V.size() + undeclared; }{{$}}
// CHECK-NOT: undeclared
// CHECK-NOT: sonde
// CHECK: 1 warning and 1 error generated.
