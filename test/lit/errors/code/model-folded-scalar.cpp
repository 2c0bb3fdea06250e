// 'model' as a '>' block: it ends with a line break (found: exit 0 at
// both doors, the instrumented file one line longer).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: state:
// SPEC:   - at: "train > #exit"
// SPEC:     model: >
// SPEC:       loss

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
// CHECK-NEXT: {{.*}}model-folded-scalar.cpp.tmp.yaml:4:12: error: 'model' is written on one line, in quotes ('model: "..."'), not as a '>' block
// CHECK-NEXT:     model: >
// CHECK-NEXT:            ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}model-folded-scalar.cpp.tmp.yaml:4:12: error: 'model' is written on one line, in quotes ('model: "..."'), not as a '>' block
// CHECK-NEXT:     model: >
// CHECK-NEXT:            ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}model-folded-scalar.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
