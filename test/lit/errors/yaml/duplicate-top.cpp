// 'probes' given twice.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC: probes:
// SPEC:   - at: "step"

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
// CHECK-NEXT: {{.*}}duplicate-top.cpp.tmp.yaml:4:1: error: duplicate key 'probes' (first given on line 2)
// CHECK-NEXT: probes:
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}duplicate-top.cpp.tmp.yaml:4:1: error: duplicate key 'probes' (first given on line 2)
// CHECK-NEXT: probes:
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}duplicate-top.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
