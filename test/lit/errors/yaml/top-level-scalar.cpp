// A spec that is a single word.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: train

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
// CHECK-NEXT: {{.*}}top-level-scalar.cpp.tmp.yaml:1:1: error: a probe spec is a map with 'version', 'scope', 'probes', 'watches', 'apis', 'state' and 'torch_ops'
// CHECK-NEXT: train
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}top-level-scalar.cpp.tmp.yaml:1:1: error: a probe spec is a map with 'version', 'scope', 'probes', 'watches', 'apis', 'state' and 'torch_ops'
// CHECK-NEXT: train
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}top-level-scalar.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
