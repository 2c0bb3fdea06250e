// '#loop@' needs a line number.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop@top"

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
// CHECK-NEXT: {{.*}}loop-line.cpp.tmp.yaml:3:18: error: expected a line number after '#loop@'
// CHECK-NEXT:   - at: "train > #loop@top"
// CHECK-NEXT:                  ^~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}loop-line.cpp.tmp.yaml:3:18: error: expected a line number after '#loop@'
// CHECK-NEXT:   - at: "train > #loop@top"
// CHECK-NEXT:                  ^~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}loop-line.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
