// Found by fuzz-selector: captures on a context frame before a host that is not a function crashed the normalizer.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epochs) > $y > loss"

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
// CHECK-NEXT: {{.*}}regress-host-not-function.cpp.tmp.yaml:3:26: error: only the last frame may be a variable, a meta or a call; context frames are functions
// CHECK-NEXT:   - at: "train(epochs) > $y > loss"
// CHECK-NEXT:                          ^~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}regress-host-not-function.cpp.tmp.yaml:3:26: error: only the last frame may be a variable, a meta or a call; context frames are functions
// CHECK-NEXT:   - at: "train(epochs) > $y > loss"
// CHECK-NEXT:                          ^~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}regress-host-not-function.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
