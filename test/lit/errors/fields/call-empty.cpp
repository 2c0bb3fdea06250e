// An empty 'call' (found: "empty selector").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: apis:
// SPEC:   - call: ""

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
// CHECK-NEXT: {{.*}}call-empty.cpp.tmp.yaml:3:12: error: 'call' is empty; write a callee glob such as '*::step' or 'torch::*'
// CHECK-NEXT:   - call: ""
// CHECK-NEXT:            ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}call-empty.cpp.tmp.yaml:3:12: error: 'call' is empty; write a callee glob such as '*::step' or 'torch::*'
// CHECK-NEXT:   - call: ""
// CHECK-NEXT:            ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}call-empty.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
