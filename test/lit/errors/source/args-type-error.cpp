// An arg expression of the wrong type.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: {e: "epochs +* 2"}

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
// CHECK-NEXT: {{.*}}args-type-error.cpp.tmp.yaml:4:24: error: indirection requires pointer operand ('int' invalid) (in {{.*}}args-type-error.cpp)
// CHECK-NEXT:     args: {e: "epochs +* 2"}
// CHECK-NEXT:                        ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}args-type-error.cpp.tmp.yaml:4:24: error: indirection requires pointer operand ('int' invalid) (in {{.*}}args-type-error.cpp:12)
// CHECK-NEXT:     args: {e: "epochs +* 2"}
// CHECK-NEXT:                        ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
