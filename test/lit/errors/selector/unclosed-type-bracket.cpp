// An unclosed '<' in a type filter (found: accepted, matched nothing).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss:vector<int"

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
// CHECK-NEXT: {{.*}}unclosed-type-bracket.cpp.tmp.yaml:3:29: error: this '<' is not closed in the type
// CHECK-NEXT:   - at: "train > loss:vector<int"
// CHECK-NEXT:                             ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unclosed-type-bracket.cpp.tmp.yaml:3:29: error: this '<' is not closed in the type
// CHECK-NEXT:   - at: "train > loss:vector<int"
// CHECK-NEXT:                             ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unclosed-type-bracket.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
