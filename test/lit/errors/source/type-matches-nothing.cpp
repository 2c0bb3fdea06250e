// A ':TYPE' that no variable has: the selector matches nothing (an error under --strict).
//
// RUN: %spec
// RUN: env REWRITE_FLAGS=--strict NO_PLUGIN=1 %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss:double"

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
// CHECK-NEXT: {{.*}}type-matches-nothing.cpp.tmp.yaml:3:10: error: selector 'train > loss:double' matches nothing
// CHECK-NEXT:   - at: "train > loss:double"
// CHECK-NEXT:          ^~~~~~~~~~~~~~~~~~~
// CHECK-NEXT: end
