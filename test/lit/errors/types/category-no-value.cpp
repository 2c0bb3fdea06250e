// 'category:' with no value (found: located at the line after, "'category'
// is a string").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     category:

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
// CHECK-NEXT: {{.*}}category-no-value.cpp.tmp.yaml:4:5: error: 'category' has no value
// CHECK-NEXT:     category:
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}category-no-value.cpp.tmp.yaml:4:5: error: 'category' has no value
// CHECK-NEXT:     category:
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}category-no-value.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
