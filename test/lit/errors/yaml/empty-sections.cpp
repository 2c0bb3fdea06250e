// Sections with no entries (found: accepted, nothing instrumented).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
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
// CHECK-NEXT: {{.*}}empty-sections.cpp.tmp.yaml:2:1: error: 'probes' has no entries; nothing would be instrumented
// CHECK-NEXT: probes:
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}empty-sections.cpp.tmp.yaml:2:1: error: 'probes' has no entries; nothing would be instrumented
// CHECK-NEXT: probes:
// CHECK-NEXT: ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}empty-sections.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
