// ptera's tags and overrides ('x:@tag').
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss:@grad"

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
// CHECK-NEXT: {{.*}}tag-override.cpp.tmp.yaml:3:23: error: ptera tags and overrides ('x:@tag') are not supported
// CHECK-NEXT:   - at: "train > loss:@grad"
// CHECK-NEXT:                       ^~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}tag-override.cpp.tmp.yaml:3:23: error: ptera tags and overrides ('x:@tag') are not supported
// CHECK-NEXT:   - at: "train > loss:@grad"
// CHECK-NEXT:                       ^~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}tag-override.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
