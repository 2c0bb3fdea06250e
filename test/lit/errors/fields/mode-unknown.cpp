// An unknown mode.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     mode: instnt

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
// CHECK-NEXT: {{.*}}mode-unknown.cpp.tmp.yaml:4:11: error: unknown mode 'instnt'; expected 'region' or 'instant'
// CHECK-NEXT:     mode: instnt
// CHECK-NEXT:           ^~~~~~
// CHECK-NEXT:           instant
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}mode-unknown.cpp.tmp.yaml:4:11: error: unknown mode 'instnt'; expected 'region' or 'instant'
// CHECK-NEXT:     mode: instnt
// CHECK-NEXT:           ^~~~~~
// CHECK-NEXT:           instant
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}mode-unknown.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
