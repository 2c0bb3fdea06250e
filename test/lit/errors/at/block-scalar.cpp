// A selector as a '|' block (found: "the selector's quote is not closed").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: |
// SPEC:       train

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
// CHECK-NEXT: {{.*}}block-scalar.cpp.tmp.yaml:3:9: error: a selector is written on one line, in quotes ('at: "..."'), not as a '|' block
// CHECK-NEXT:   - at: |
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}block-scalar.cpp.tmp.yaml:3:9: error: a selector is written on one line, in quotes ('at: "..."'), not as a '|' block
// CHECK-NEXT:   - at: |
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}block-scalar.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
