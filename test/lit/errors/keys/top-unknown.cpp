// An unknown top-level key lists the known ones.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: output: trace.sonde
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
// CHECK-NEXT: {{.*}}top-unknown.cpp.tmp.yaml:2:1: error: unknown top-level key 'output'; expected one of version, scope, probes, watches, apis, state, torch_ops
// CHECK-NEXT: output: trace.sonde
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}top-unknown.cpp.tmp.yaml:2:1: error: unknown top-level key 'output'; expected one of version, scope, probes, watches, apis, state, torch_ops
// CHECK-NEXT: output: trace.sonde
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}top-unknown.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
