// A spec without 'version'.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: probes:
// SPEC:   - at: "train"

void step(int n) {}
float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    loss += 1.0f / (epoch + 1);
    step(epoch);
  }
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}version-missing.cpp.tmp.yaml:1:1: error: missing 'version: 1' at the top of the spec
// CHECK-NEXT: probes:
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}version-missing.cpp.tmp.yaml:1:1: error: missing 'version: 1' at the top of the spec
// CHECK-NEXT: probes:
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}version-missing.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
