// A range start without its end.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train(!#enter)"

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
// CHECK-NEXT: {{.*}}range-no-end.cpp.tmp.yaml:3:16: error: range start '!#enter' needs an end '!!B' in the same frame
// CHECK-NEXT:   - at: "train(!#enter)"
// CHECK-NEXT:                ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}range-no-end.cpp.tmp.yaml:3:16: error: range start '!#enter' needs an end '!!B' in the same frame
// CHECK-NEXT:   - at: "train(!#enter)"
// CHECK-NEXT:                ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}range-no-end.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
