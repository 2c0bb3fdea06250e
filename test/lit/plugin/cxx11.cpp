// The plugin front door refuses a C++11 file that gets probes with the
// engine's reason (see test/lit/cli/cxx11.cpp), and compiles one without
// probes as it is.
//
// REQUIRES: sonde-plugin
// RUN: %spec
// RUN: %not %cxx -std=c++11 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: sonde: cannot compute the plan: instrumented code needs C++17 or later, and '{{.*}}cxx11.cpp' is compiled as c++11: compile it with -std=c++17
// RUN: printf 'version: 1\nprobes:\n  - at: "nothing"\n' > %t.none.yaml
// RUN: %cxx -std=c++11 %sonde-plugin -fplugin-arg-sonde-spec=%t.none.yaml -fsyntax-only %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute

int f(int x) { return x + 1; }
int main() { return f(1) - 2; }
