// 'args' given as a list.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: [epochs]

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
// CHECK-NEXT: {{.*}}args-list.cpp.tmp.yaml:4:11: error: 'args' is a map of name to C++ expression: '{epoch: epoch}'
// CHECK-NEXT:     args: [epochs]
// CHECK-NEXT:           ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}args-list.cpp.tmp.yaml:4:11: error: 'args' is a map of name to C++ expression: '{epoch: epoch}'
// CHECK-NEXT:     args: [epochs]
// CHECK-NEXT:           ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}args-list.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
