// Two captures recorded under one name (found: accepted; each record held
// two values named 'a').
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epochs as a, loss as a) > loss"

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
// CHECK-NEXT: {{.*}}capture-twice.cpp.tmp.yaml:3:29: error: 'a' is recorded twice in each event (capture 'epochs' and capture 'loss'); rename one with 'as'
// CHECK-NEXT:   - at: "train(epochs as a, loss as a) > loss"
// CHECK-NEXT:                             ^~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-twice.cpp.tmp.yaml:3:29: error: 'a' is recorded twice in each event (capture 'epochs' and capture 'loss'); rename one with 'as'
// CHECK-NEXT:   - at: "train(epochs as a, loss as a) > loss"
// CHECK-NEXT:                             ^~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}capture-twice.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
