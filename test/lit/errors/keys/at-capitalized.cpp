// 'At:' is answered once (found: a second error, "probe has no 'at'
// selector").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - At: "train"

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
// CHECK-NEXT: {{.*}}at-capitalized.cpp.tmp.yaml:3:5: error: unknown probe key 'At'; did you mean 'at'?
// CHECK-NEXT:   - At: "train"
// CHECK-NEXT:     ^~
// CHECK-NEXT:     at
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}at-capitalized.cpp.tmp.yaml:3:5: error: unknown probe key 'At'; did you mean 'at'?
// CHECK-NEXT:   - At: "train"
// CHECK-NEXT:     ^~
// CHECK-NEXT:     at
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}at-capitalized.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
