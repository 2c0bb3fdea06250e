// 'check' takes 'finite' only.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     check: positive

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}check-unknown.cpp.tmp.yaml:4:12: error: unknown check 'positive'; expected 'finite'
// CHECK-NEXT:     check: positive
// CHECK-NEXT:            ^~~~~~~~
// CHECK-NEXT:            finite
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}check-unknown.cpp.tmp.yaml:4:12: error: unknown check 'positive'; expected 'finite'
// CHECK-NEXT:     check: positive
// CHECK-NEXT:            ^~~~~~~~
// CHECK-NEXT:            finite
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}check-unknown.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
