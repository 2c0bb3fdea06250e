// A multi-TU build: each translation unit is instrumented on its own (-c),
// the program records sites of both.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -DPART_A %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/a.o
// RUN: %cxx -std=c++17 -x c++ %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %S/Inputs/multi-tu-b.cc -o %t/b.o
// RUN: %cxx %t/a.o %t/b.o -o %t/prog %sonde-link
// RUN: env SONDE_OUTPUT=%t/trace %t/prog && %sonde-trace export %t/trace --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main"
// SPEC:     category: pipeline.train
// SPEC:   - at: "helper"
// SPEC:     category: compute

int helper(int);
int main() { return helper(1) == 2 ? 0 : 1; }

// CHECK: region pipeline/train level=0 line=[[@LINE-2]] func=main
// CHECK-NEXT: region compute/helper level=1 line=2 func=helper
