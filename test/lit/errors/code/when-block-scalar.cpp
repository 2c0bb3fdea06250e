// 'when' as a '|' block: its line breaks went into the source and moved
// every line below (found: 9 lines became 13, exit 0).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: |
// SPEC:       loss > 0 &&
// SPEC:       loss < 5

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
// CHECK-NEXT: {{.*}}when-block-scalar.cpp.tmp.yaml:4:11: error: 'when' is written on one line, in quotes ('when: "..."'), not as a '|' block
// CHECK-NEXT:     when: |
// CHECK-NEXT:           ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-block-scalar.cpp.tmp.yaml:4:11: error: 'when' is written on one line, in quotes ('when: "..."'), not as a '|' block
// CHECK-NEXT:     when: |
// CHECK-NEXT:           ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-block-scalar.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
