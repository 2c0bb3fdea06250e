// A misspelt probe key gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     categroy: compute

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
// CHECK-NEXT: {{.*}}probe-typo.cpp.tmp.yaml:4:5: error: unknown probe key 'categroy'; did you mean 'category'?
// CHECK-NEXT:     categroy: compute
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT:     category
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}probe-typo.cpp.tmp.yaml:4:5: error: unknown probe key 'categroy'; did you mean 'category'?
// CHECK-NEXT:     categroy: compute
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT:     category
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}probe-typo.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
