// A 'when' naming a variable not in scope at the site.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "epoch > 2"

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
// CHECK-NEXT: {{.*}}when-out-of-scope.cpp.tmp.yaml:4:12: error: use of undeclared identifier 'epoch'; did you mean 'epochs'? (in {{.*}}when-out-of-scope.cpp)
// CHECK-NEXT:     when: "epoch > 2"
// CHECK-NEXT:            ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-out-of-scope.cpp.tmp.yaml:4:12: error: use of undeclared identifier 'epoch'; did you mean 'epochs'? (in {{.*}}when-out-of-scope.cpp:13)
// CHECK-NEXT:     when: "epoch > 2"
// CHECK-NEXT:            ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
