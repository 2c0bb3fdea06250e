// A character that starts nothing.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > %loss"

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
// CHECK-NEXT: {{.*}}bad-char.cpp.tmp.yaml:3:18: error: unexpected '%': expected a function, a variable, '$name', '*', a '#' meta or a call 'F()'
// CHECK-NEXT:   - at: "train > %loss"
// CHECK-NEXT:                  ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}bad-char.cpp.tmp.yaml:3:18: error: unexpected '%': expected a function, a variable, '$name', '*', a '#' meta or a call 'F()'
// CHECK-NEXT:   - at: "train > %loss"
// CHECK-NEXT:                  ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}bad-char.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
