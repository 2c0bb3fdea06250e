// Two captures without a comma.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epochs loss) > step"

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
// CHECK-NEXT: {{.*}}missing-comma.cpp.tmp.yaml:3:23: error: expected ',' or ')' after an item
// CHECK-NEXT:   - at: "train(epochs loss) > step"
// CHECK-NEXT:                       ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}missing-comma.cpp.tmp.yaml:3:23: error: expected ',' or ')' after an item
// CHECK-NEXT:   - at: "train(epochs loss) > step"
// CHECK-NEXT:                       ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}missing-comma.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
