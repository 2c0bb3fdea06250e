// An arg that closes sonde's parenthesis passed two values for one name
// (found: exit 0, `watchArgs(site, loss, (1), (2))`).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     args: {a: "1), (2"}

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
// CHECK-NEXT: {{.*}}args-extra-value.cpp.tmp.yaml:4:17: error: ')' closes a bracket that arg 'a' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     args: {a: "1), (2"}
// CHECK-NEXT:                 ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}args-extra-value.cpp.tmp.yaml:4:17: error: ')' closes a bracket that arg 'a' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     args: {a: "1), (2"}
// CHECK-NEXT:                 ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}args-extra-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
