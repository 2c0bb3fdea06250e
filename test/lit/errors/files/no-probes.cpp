// A spec with a version and nothing else.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1

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
// CHECK-NEXT: {{.*}}no-probes.cpp.tmp.yaml:1:1: error: the spec has no 'probes:', 'watches:', 'apis:', 'state:' or 'torch_ops:'; nothing would be instrumented
// CHECK-NEXT: version: 1
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}no-probes.cpp.tmp.yaml:1:1: error: the spec has no 'probes:', 'watches:', 'apis:', 'state:' or 'torch_ops:'; nothing would be instrumented
// CHECK-NEXT: version: 1
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}no-probes.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
