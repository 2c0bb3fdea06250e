// Captures on a context frame.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epochs) > step > n"

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
// CHECK-NEXT: {{.*}}capture-on-context.cpp.tmp.yaml:3:16: error: captures are taken in the frame that holds the focus; move them to 'step(...)'
// CHECK-NEXT:   - at: "train(epochs) > step > n"
// CHECK-NEXT:                ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-on-context.cpp.tmp.yaml:3:16: error: captures are taken in the frame that holds the focus; move them to 'step(...)'
// CHECK-NEXT:   - at: "train(epochs) > step > n"
// CHECK-NEXT:                ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}capture-on-context.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
