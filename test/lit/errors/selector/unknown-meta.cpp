// A misspelt meta gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #entr"

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
// CHECK-NEXT: {{.*}}unknown-meta.cpp.tmp.yaml:3:18: error: unknown meta '#entr'; did you mean '#enter'?
// CHECK-NEXT:   - at: "train > #entr"
// CHECK-NEXT:                  ^~~~~
// CHECK-NEXT:                  #enter
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unknown-meta.cpp.tmp.yaml:3:18: error: unknown meta '#entr'; did you mean '#enter'?
// CHECK-NEXT:   - at: "train > #entr"
// CHECK-NEXT:                  ^~~~~
// CHECK-NEXT:                  #enter
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unknown-meta.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
