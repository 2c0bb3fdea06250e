// An arg calling a member of an int.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: {e: "epochs.size()"}

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
// CHECK-NEXT: {{.*}}args-member.cpp.tmp.yaml:4:22: error: member reference base type 'int' is not a structure or union (in {{.*}}args-member.cpp)
// CHECK-NEXT:     args: {e: "epochs.size()"}
// CHECK-NEXT:                      ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}args-member.cpp.tmp.yaml:4:22: error: member reference base type 'int' is not a structure or union (in {{.*}}args-member.cpp:12)
// CHECK-NEXT:     args: {e: "epochs.size()"}
// CHECK-NEXT:                      ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
