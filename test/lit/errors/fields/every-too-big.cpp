// 'every' beyond 32 bits (found: "'every' is a positive integer").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     every: 99999999999999999999

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
// CHECK-NEXT: {{.*}}every-too-big.cpp.tmp.yaml:4:12: error: 'every' is at most 4294967295
// CHECK-NEXT:     every: 99999999999999999999
// CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}every-too-big.cpp.tmp.yaml:4:12: error: 'every' is at most 4294967295
// CHECK-NEXT:     every: 99999999999999999999
// CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}every-too-big.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
