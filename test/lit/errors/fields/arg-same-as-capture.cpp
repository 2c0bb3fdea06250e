// An arg named as a capture (found: accepted; each record held two values
// named 'epochs').
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epochs) > loss"
// SPEC:     args: {epochs: "epochs + 1"}

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
// CHECK-NEXT: {{.*}}arg-same-as-capture.cpp.tmp.yaml:4:12: error: 'epochs' is recorded twice in each event (capture 'epochs' and this arg); rename the arg
// CHECK-NEXT:     args: {epochs: "epochs + 1"}
// CHECK-NEXT:            ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}arg-same-as-capture.cpp.tmp.yaml:4:12: error: 'epochs' is recorded twice in each event (capture 'epochs' and this arg); rename the arg
// CHECK-NEXT:     args: {epochs: "epochs + 1"}
// CHECK-NEXT:            ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}arg-same-as-capture.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
