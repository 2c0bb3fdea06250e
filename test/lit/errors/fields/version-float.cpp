// 'version: 1.0' (found: "'version' is a number").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1.0
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
// CHECK-NEXT: {{.*}}version-float.cpp.tmp.yaml:1:10: error: unsupported spec version '1.0'; this sonde reads version 1
// CHECK-NEXT: version: 1.0
// CHECK-NEXT:          ^~~
// CHECK-NEXT:          1
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}version-float.cpp.tmp.yaml:1:10: error: unsupported spec version '1.0'; this sonde reads version 1
// CHECK-NEXT: version: 1.0
// CHECK-NEXT:          ^~~
// CHECK-NEXT:          1
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}version-float.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
