// A key that is a list (found: "unknown top-level key ''").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: ? [probes, watches]
// SPEC: : 1
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
// CHECK-NEXT: {{.*}}non-scalar-key.cpp.tmp.yaml:2:3: error: a key here is a name: one of version, scope, probes, watches, apis, state, torch_ops
// CHECK-NEXT: ? [probes, watches]
// CHECK-NEXT:   ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}non-scalar-key.cpp.tmp.yaml:2:3: error: a key here is a name: one of version, scope, probes, watches, apis, state, torch_ops
// CHECK-NEXT: ? [probes, watches]
// CHECK-NEXT:   ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}non-scalar-key.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
