// A '-' with nothing after it (found: located at the next entry).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   -
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
// CHECK-NEXT: {{.*}}null-entry.cpp.tmp.yaml:3:3: error: a probe is a map with at least 'at'
// CHECK-NEXT:   -
// CHECK-NEXT:   ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}null-entry.cpp.tmp.yaml:3:3: error: a probe is a map with at least 'at'
// CHECK-NEXT:   -
// CHECK-NEXT:   ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}null-entry.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
