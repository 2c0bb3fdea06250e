// 'summary' on a region.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     summary: stats

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
// CHECK-NEXT: {{.*}}summary-on-region.cpp.tmp.yaml:4:14: error: 'summary' applies to watches only
// CHECK-NEXT:     summary: stats
// CHECK-NEXT:              ^~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}summary-on-region.cpp.tmp.yaml:4:14: error: 'summary' applies to watches only
// CHECK-NEXT:     summary: stats
// CHECK-NEXT:              ^~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}summary-on-region.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
