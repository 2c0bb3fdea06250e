// 'when' as a list: a value that starts with '[' is one in YAML.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: [epoch > 1]

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
// CHECK-NEXT: {{.*}}when-list.cpp.tmp.yaml:4:11: error: 'when' is a string; a value that starts with '[' is a YAML list: write it in quotes
// CHECK-NEXT:     when: [epoch > 1]
// CHECK-NEXT:           ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-list.cpp.tmp.yaml:4:11: error: 'when' is a string; a value that starts with '[' is a YAML list: write it in quotes
// CHECK-NEXT:     when: [epoch > 1]
// CHECK-NEXT:           ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-list.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
