// ': ' in an unquoted value (found: "invalid YAML: illegal map value").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: train > loss: float

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
// CHECK-NEXT: {{.*}}colon-in-value.cpp.tmp.yaml:3:21: error: invalid YAML: illegal map value; ': ' inside a value starts a key: write the value in quotes
// CHECK-NEXT:   - at: train > loss: float
// CHECK-NEXT:                     ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}colon-in-value.cpp.tmp.yaml:3:21: error: invalid YAML: illegal map value; ': ' inside a value starts a key: write the value in quotes
// CHECK-NEXT:   - at: train > loss: float
// CHECK-NEXT:                     ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}colon-in-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
