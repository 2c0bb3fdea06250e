// A misspelt scope key gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exclude: {fnction: train}
// SPEC: probes:
// SPEC:   - at: "train"

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
// CHECK-NEXT: {{.*}}scope-typo.cpp.tmp.yaml:3:15: error: unknown scope key 'fnction'; did you mean 'function'?
// CHECK-NEXT:   - exclude: {fnction: train}
// CHECK-NEXT:               ^~~~~~~
// CHECK-NEXT:               function
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}scope-typo.cpp.tmp.yaml:3:15: error: unknown scope key 'fnction'; did you mean 'function'?
// CHECK-NEXT:   - exclude: {fnction: train}
// CHECK-NEXT:               ^~~~~~~
// CHECK-NEXT:               function
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}scope-typo.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
