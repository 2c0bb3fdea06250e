// The same probe twice: every hit would be recorded twice.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
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
// CHECK-NEXT: {{.*}}conflict-same.cpp:12:7: error: probes on lines 3 and 4 of {{.*}}conflict-same.cpp.tmp.yaml both record region 'train' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    12 | float train(int epochs) {
// CHECK-NEXT:       |       ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}conflict-same.cpp:12:7: error: probes on lines 3 and 4 of {{.*}}conflict-same.cpp.tmp.yaml both record region 'train' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    12 | float train(int epochs) {
// CHECK-NEXT:       |       ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
