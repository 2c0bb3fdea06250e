// ptera's '>>' (immediate caller).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train >> step > n"

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
// CHECK-NEXT: {{.*}}immediate-caller.cpp.tmp.yaml:3:16: error: '>>' (immediate caller) is not supported; use '>', which matches at any depth of calls
// CHECK-NEXT:   - at: "train >> step > n"
// CHECK-NEXT:                ^~
// CHECK-NEXT:                >
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}immediate-caller.cpp.tmp.yaml:3:16: error: '>>' (immediate caller) is not supported; use '>', which matches at any depth of calls
// CHECK-NEXT:   - at: "train >> step > n"
// CHECK-NEXT:                ^~
// CHECK-NEXT:                >
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}immediate-caller.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
