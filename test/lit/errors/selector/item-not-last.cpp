// A variable frame before another frame.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > #enter > loss"

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
// CHECK-NEXT: {{.*}}item-not-last.cpp.tmp.yaml:3:18: error: only the last frame may be a variable, a meta or a call; context frames are functions
// CHECK-NEXT:   - at: "train > #enter > loss"
// CHECK-NEXT:                  ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}item-not-last.cpp.tmp.yaml:3:18: error: only the last frame may be a variable, a meta or a call; context frames are functions
// CHECK-NEXT:   - at: "train > #enter > loss"
// CHECK-NEXT:                  ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}item-not-last.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
