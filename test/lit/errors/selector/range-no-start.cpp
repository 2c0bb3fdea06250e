// A range end without its start.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train(!!#exit)"

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
// CHECK-NEXT: {{.*}}range-no-start.cpp.tmp.yaml:3:16: error: '!!#exit' ends a range and needs a start '!A' in the same frame (ptera's total probes are not supported)
// CHECK-NEXT:   - at: "train(!!#exit)"
// CHECK-NEXT:                ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}range-no-start.cpp.tmp.yaml:3:16: error: '!!#exit' ends a range and needs a start '!A' in the same frame (ptera's total probes are not supported)
// CHECK-NEXT:   - at: "train(!!#exit)"
// CHECK-NEXT:                ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}range-no-start.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
