// An unknown meta lists the known ones.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #begin"

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
// CHECK-NEXT: {{.*}}unknown-meta-far.cpp.tmp.yaml:3:18: error: unknown meta '#begin'; expected #enter, #exit, #value, #error, #loop, #loop_X, #endloop_X or #loop@LINE
// CHECK-NEXT:   - at: "train > #begin"
// CHECK-NEXT:                  ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unknown-meta-far.cpp.tmp.yaml:3:18: error: unknown meta '#begin'; expected #enter, #exit, #value, #error, #loop, #loop_X, #endloop_X or #loop@LINE
// CHECK-NEXT:   - at: "train > #begin"
// CHECK-NEXT:                  ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unknown-meta-far.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
