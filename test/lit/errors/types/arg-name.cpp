// An arg name that is not an identifier.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: {"max epochs": epochs}

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
// CHECK-NEXT: {{.*}}arg-name.cpp.tmp.yaml:4:12: error: arg name 'max epochs' must be an identifier
// CHECK-NEXT:     args: {"max epochs": epochs}
// CHECK-NEXT:            ^~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}arg-name.cpp.tmp.yaml:4:12: error: arg name 'max epochs' must be an identifier
// CHECK-NEXT:     args: {"max epochs": epochs}
// CHECK-NEXT:            ^~~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}arg-name.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
