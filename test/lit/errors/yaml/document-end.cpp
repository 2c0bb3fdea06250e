// Content after the end-of-document marker '...'.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC: ...
// SPEC: watches: []

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
// CHECK-NEXT: {{.*}}document-end.cpp.tmp.yaml:5:1: error: a spec is one YAML document; this is a second one
// CHECK-NEXT: watches: []
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}document-end.cpp.tmp.yaml:5:1: error: a spec is one YAML document; this is a second one
// CHECK-NEXT: watches: []
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}document-end.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
