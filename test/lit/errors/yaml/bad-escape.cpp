// A backslash in double quotes (found: "invalid YAML: unknown escape
// character: d").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "loss > 0 && \d"

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
// CHECK-NEXT: {{.*}}bad-escape.cpp.tmp.yaml:4:26: error: invalid YAML: unknown escape character: d; in double quotes '\' starts an escape: write '\\' or use single quotes
// CHECK-NEXT:     when: "loss > 0 && \d"
// CHECK-NEXT:                          ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}bad-escape.cpp.tmp.yaml:4:26: error: invalid YAML: unknown escape character: d; in double quotes '\' starts an escape: write '\\' or use single quotes
// CHECK-NEXT:     when: "loss > 0 && \d"
// CHECK-NEXT:                          ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}bad-escape.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
