// A 'when' that does not parse, reported at the spec's line.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "loss >"

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
// CHECK-NEXT: {{.*}}when-syntax.cpp.tmp.yaml:4:18: error: expected expression (in {{.*}}when-syntax.cpp)
// CHECK-NEXT:     when: "loss >"
// CHECK-NEXT:                  ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-syntax.cpp.tmp.yaml:4:18: error: expected expression (in {{.*}}when-syntax.cpp:13)
// CHECK-NEXT:     when: "loss >"
// CHECK-NEXT:                  ^
// CHECK-NEXT: {{.*}}when-syntax.cpp.tmp.yaml:4:18: error: expected expression (in {{.*}}when-syntax.cpp:15)
// CHECK-NEXT:     when: "loss >"
// CHECK-NEXT:                  ^
// CHECK-NEXT: 2 errors generated.
// CHECK-NEXT: end
