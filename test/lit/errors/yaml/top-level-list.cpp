// A spec that is a list instead of a map.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: - at: "train"

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
// CHECK-NEXT: {{.*}}top-level-list.cpp.tmp.yaml:1:1: error: a probe spec is a map with 'version', 'scope', 'probes', 'watches', 'apis', 'state' and 'torch_ops'
// CHECK-NEXT: - at: "train"
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}top-level-list.cpp.tmp.yaml:1:1: error: a probe spec is a map with 'version', 'scope', 'probes', 'watches', 'apis', 'state' and 'torch_ops'
// CHECK-NEXT: - at: "train"
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}top-level-list.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
