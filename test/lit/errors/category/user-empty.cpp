// 'user.' with nothing after the dot.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     category: user.

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
// CHECK-NEXT: {{.*}}user-empty.cpp.tmp.yaml:4:15: error: unknown category 'user.'; did you mean 'user'?
// CHECK-NEXT:     category: user.
// CHECK-NEXT:               ^~~~~
// CHECK-NEXT:               user
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}user-empty.cpp.tmp.yaml:4:15: error: unknown category 'user.'; did you mean 'user'?
// CHECK-NEXT:     category: user.
// CHECK-NEXT:               ^~~~~
// CHECK-NEXT:               user
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}user-empty.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
