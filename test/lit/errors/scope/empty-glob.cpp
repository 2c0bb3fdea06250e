// An empty file glob excluded every function (found: accepted).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exclude: ""
// SPEC: probes:
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
// CHECK-NEXT: {{.*}}empty-glob.cpp.tmp.yaml:3:15: error: an empty 'file' glob; it would exclude everything
// CHECK-NEXT:   - exclude: ""
// CHECK-NEXT:               ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}empty-glob.cpp.tmp.yaml:3:15: error: an empty 'file' glob; it would exclude everything
// CHECK-NEXT:   - exclude: ""
// CHECK-NEXT:               ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}empty-glob.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
