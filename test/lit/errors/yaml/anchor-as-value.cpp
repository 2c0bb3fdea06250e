// 'when: &&x': '&' starts an anchor, and the value is empty (found:
// "'when' is a string", at the line after).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: &&x

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
// CHECK-NEXT: {{.*}}anchor-as-value.cpp.tmp.yaml:4:5: error: 'when' has no value; '&' after 'when:' starts a YAML anchor: write the value in quotes
// CHECK-NEXT:     when: &&x
// CHECK-NEXT:     ^~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}anchor-as-value.cpp.tmp.yaml:4:5: error: 'when' has no value; '&' after 'when:' starts a YAML anchor: write the value in quotes
// CHECK-NEXT:     when: &&x
// CHECK-NEXT:     ^~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}anchor-as-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
