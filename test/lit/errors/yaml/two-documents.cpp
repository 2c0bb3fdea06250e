// Two YAML documents in one spec.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC: ---
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
// CHECK-NEXT: {{.*}}two-documents.cpp.tmp.yaml:4:1: error: a spec is one YAML document; this is a second one
// CHECK-NEXT: ---
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}two-documents.cpp.tmp.yaml:4:1: error: a spec is one YAML document; this is a second one
// CHECK-NEXT: ---
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}two-documents.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
