// A misspelt scope rule gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exlude: {file: x.cpp}
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
// CHECK-NEXT: {{.*}}scope-rule-typo.cpp.tmp.yaml:3:5: error: unknown scope rule 'exlude'; did you mean 'exclude'?
// CHECK-NEXT:   - exlude: {file: x.cpp}
// CHECK-NEXT:     ^~~~~~
// CHECK-NEXT:     exclude
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}scope-rule-typo.cpp.tmp.yaml:3:5: error: unknown scope rule 'exlude'; did you mean 'exclude'?
// CHECK-NEXT:   - exlude: {file: x.cpp}
// CHECK-NEXT:     ^~~~~~
// CHECK-NEXT:     exclude
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}scope-rule-typo.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
