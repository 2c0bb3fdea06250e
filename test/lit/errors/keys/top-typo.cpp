// A misspelt top-level key gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probe:
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
// CHECK-NEXT: {{.*}}top-typo.cpp.tmp.yaml:2:1: error: unknown top-level key 'probe'; did you mean 'probes'?
// CHECK-NEXT: probe:
// CHECK-NEXT: ^~~~~
// CHECK-NEXT: probes
// CHECK-NEXT: {{.*}}top-typo.cpp.tmp.yaml:1:1: error: the spec has no 'probes:', 'watches:', 'apis:', 'state:' or 'torch_ops:'; nothing would be instrumented
// CHECK-NEXT: version: 1
// CHECK-NEXT: ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}top-typo.cpp.tmp.yaml:2:1: error: unknown top-level key 'probe'; did you mean 'probes'?
// CHECK-NEXT: probe:
// CHECK-NEXT: ^~~~~
// CHECK-NEXT: probes
// CHECK-NEXT: {{.*}}top-typo.cpp.tmp.yaml:1:1: error: the spec has no 'probes:', 'watches:', 'apis:', 'state:' or 'torch_ops:'; nothing would be instrumented
// CHECK-NEXT: version: 1
// CHECK-NEXT: ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}top-typo.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
