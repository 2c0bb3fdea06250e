// A '_Pragma' in 'when' is no expression: it would apply to the rest of
// the file (found: accepted).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: '_Pragma("clang diagnostic ignored \"-Wall\"") loss > 0'

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
// CHECK-NEXT: {{.*}}when-pragma.cpp.tmp.yaml:4:12: error: '_Pragma' in 'when' would change how the rest of the source compiles; spec code is one C++ expression
// CHECK-NEXT:     when: '_Pragma("clang diagnostic ignored \"-Wall\"") loss > 0'
// CHECK-NEXT:            ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-pragma.cpp.tmp.yaml:4:12: error: '_Pragma' in 'when' would change how the rest of the source compiles; spec code is one C++ expression
// CHECK-NEXT:     when: '_Pragma("clang diagnostic ignored \"-Wall\"") loss > 0'
// CHECK-NEXT:            ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-pragma.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
