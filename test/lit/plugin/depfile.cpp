// -MD -MF: exactly one dependency file, the real compile's, naming the
// object, the source, the probe spec (an edit rebuilds) and the runtime
// header the plugin includes. The nested parse writes nothing.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: cd %t && %cxx -std=c++17 -MD -MF %t/out.d %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/out.o
// RUN: FileCheck %s --input-file %t/out.d
// RUN: ls %t | FileCheck %s --check-prefix=FILES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"

int f() { return 1; }

// CHECK: {{.*}}out.o:
// CHECK-NEXT: {{.*}}depfile.cpp
// CHECK-NEXT: {{.*}}depfile.cpp.tmp.yaml
// CHECK: {{.*}}sonde/sonde.h
// FILES: out.d
// FILES-NEXT: out.o
// FILES-NOT: .d
