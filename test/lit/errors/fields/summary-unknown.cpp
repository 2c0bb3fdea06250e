// An unknown summary lists the known ones.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     summary: histogram

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
// CHECK-NEXT: {{.*}}summary-unknown.cpp.tmp.yaml:4:14: error: unknown summary 'histogram'; expected value, shape, stats, hash, full
// CHECK-NEXT:     summary: histogram
// CHECK-NEXT:              ^~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}summary-unknown.cpp.tmp.yaml:4:14: error: unknown summary 'histogram'; expected value, shape, stats, hash, full
// CHECK-NEXT:     summary: histogram
// CHECK-NEXT:              ^~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}summary-unknown.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
