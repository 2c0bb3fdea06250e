// A quoted 'when' that continues on the next line (YAML folds it into one;
// errors in it would be located on the wrong line).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "loss > 0 &&
// SPEC:       loss < 5"

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
// CHECK-NEXT: {{.*}}when-two-lines.cpp.tmp.yaml:4:11: error: the quote of 'when' is not closed on its line, so the lines below became part of it
// CHECK-NEXT:     when: "loss > 0 &&
// CHECK-NEXT:           ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-two-lines.cpp.tmp.yaml:4:11: error: the quote of 'when' is not closed on its line, so the lines below became part of it
// CHECK-NEXT:     when: "loss > 0 &&
// CHECK-NEXT:           ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-two-lines.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
