// 'when' that closes sonde's parenthesis: `(true) || (false) && every(..)`
// was accepted and silently dropped 'every' (found: exit 0 at both doors).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "true) || (false"
// SPEC:     every: 10

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
// CHECK-NEXT: {{.*}}when-escapes-parens.cpp.tmp.yaml:4:16: error: ')' closes a bracket that 'when' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     when: "true) || (false"
// CHECK-NEXT:                ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-escapes-parens.cpp.tmp.yaml:4:16: error: ')' closes a bracket that 'when' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     when: "true) || (false"
// CHECK-NEXT:                ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-escapes-parens.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
