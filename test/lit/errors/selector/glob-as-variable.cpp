// A glob where a variable is expected.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(ns::x) > loss"

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
// CHECK-NEXT: {{.*}}glob-as-variable.cpp.tmp.yaml:3:16: error: 'ns::x' is not a variable name; write 'ns::x()' for call sites or '$x' for any local
// CHECK-NEXT:   - at: "train(ns::x) > loss"
// CHECK-NEXT:                ^~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}glob-as-variable.cpp.tmp.yaml:3:16: error: 'ns::x' is not a variable name; write 'ns::x()' for call sites or '$x' for any local
// CHECK-NEXT:   - at: "train(ns::x) > loss"
// CHECK-NEXT:                ^~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}glob-as-variable.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
