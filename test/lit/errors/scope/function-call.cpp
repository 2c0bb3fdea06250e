// A function glob written as a call never matched (found: accepted, the
// rule excluded nothing).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exclude: {function: "step()"}
// SPEC: probes:
// SPEC:   - at: "*"

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
// CHECK-NEXT: {{.*}}function-call.cpp.tmp.yaml:3:26: error: 'function' is a qualified-name glob ('train', 'ns::*', '*::forward'), not a selector; did you mean 'step'?
// CHECK-NEXT:   - exclude: {function: "step()"}
// CHECK-NEXT:                          ^~~~~~
// CHECK-NEXT:                          step
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}function-call.cpp.tmp.yaml:3:26: error: 'function' is a qualified-name glob ('train', 'ns::*', '*::forward'), not a selector; did you mean 'step'?
// CHECK-NEXT:   - exclude: {function: "step()"}
// CHECK-NEXT:                          ^~~~~~
// CHECK-NEXT:                          step
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}function-call.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
