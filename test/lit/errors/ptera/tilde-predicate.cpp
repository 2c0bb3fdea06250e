// ptera's '~predicate' filter.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss~positive"

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
// CHECK-NEXT: {{.*}}tilde-predicate.cpp.tmp.yaml:3:22: error: ptera's '~predicate' filter is not supported; write the predicate as 'when:'
// CHECK-NEXT:   - at: "train > loss~positive"
// CHECK-NEXT:                      ^~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}tilde-predicate.cpp.tmp.yaml:3:22: error: ptera's '~predicate' filter is not supported; write the predicate as 'when:'
// CHECK-NEXT:   - at: "train > loss~positive"
// CHECK-NEXT:                      ^~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}tilde-predicate.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
