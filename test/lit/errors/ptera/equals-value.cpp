// ptera's '=value' filter.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss=0"

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
// CHECK-NEXT: {{.*}}equals-value.cpp.tmp.yaml:3:22: error: ptera's '=value' filter is not supported; write the condition as 'when: "NAME == VALUE"'
// CHECK-NEXT:   - at: "train > loss=0"
// CHECK-NEXT:                      ^~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}equals-value.cpp.tmp.yaml:3:22: error: ptera's '=value' filter is not supported; write the condition as 'when: "NAME == VALUE"'
// CHECK-NEXT:   - at: "train > loss=0"
// CHECK-NEXT:                      ^~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}equals-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
