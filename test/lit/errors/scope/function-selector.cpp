// A selector where a function glob is expected (found: accepted, the rule
// excluded nothing).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exclude: {function: "train > step"}
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
// CHECK-NEXT: {{.*}}function-selector.cpp.tmp.yaml:3:26: error: 'function' is a qualified-name glob ('train', 'ns::*', '*::forward'), not a selector
// CHECK-NEXT:   - exclude: {function: "train > step"}
// CHECK-NEXT:                          ^~~~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}function-selector.cpp.tmp.yaml:3:26: error: 'function' is a qualified-name glob ('train', 'ns::*', '*::forward'), not a selector
// CHECK-NEXT:   - exclude: {function: "train > step"}
// CHECK-NEXT:                          ^~~~~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}function-selector.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
