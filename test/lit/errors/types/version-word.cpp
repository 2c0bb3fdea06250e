// 'version' that is not a number.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: one
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
// CHECK-NEXT: {{.*}}version-word.cpp.tmp.yaml:1:10: error: 'version' is a number: 'version: 1'
// CHECK-NEXT: version: one
// CHECK-NEXT:          ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}version-word.cpp.tmp.yaml:1:10: error: 'version' is a number: 'version: 1'
// CHECK-NEXT: version: one
// CHECK-NEXT:          ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}version-word.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
