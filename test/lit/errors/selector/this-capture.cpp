// 'this' as a capture (found: warned "not in scope here" at every site).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train(this)"

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
// CHECK-NEXT: {{.*}}this-capture.cpp.tmp.yaml:3:16: error: 'this' is not a variable of the function; record a member with 'args: {v: "this->v"}'
// CHECK-NEXT:   - at: "train(this)"
// CHECK-NEXT:                ^~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}this-capture.cpp.tmp.yaml:3:16: error: 'this' is not a variable of the function; record a member with 'args: {v: "this->v"}'
// CHECK-NEXT:   - at: "train(this)"
// CHECK-NEXT:                ^~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}this-capture.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
