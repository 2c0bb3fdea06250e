// 'version:' with no value (found: located at the next line).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version:
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
// CHECK-NEXT: {{.*}}version-no-value.cpp.tmp.yaml:1:1: error: 'version' has no value; write 'version: 1'
// CHECK-NEXT: version:
// CHECK-NEXT: ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}version-no-value.cpp.tmp.yaml:1:1: error: 'version' has no value; write 'version: 1'
// CHECK-NEXT: version:
// CHECK-NEXT: ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}version-no-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
