// A misspelt summary gets a suggestion.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     summary: stat

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
// CHECK-NEXT: {{.*}}summary-near-miss.cpp.tmp.yaml:4:14: error: unknown summary 'stat'; did you mean 'stats'?
// CHECK-NEXT:     summary: stat
// CHECK-NEXT:              ^~~~
// CHECK-NEXT:              stats
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}summary-near-miss.cpp.tmp.yaml:4:14: error: unknown summary 'stat'; did you mean 'stats'?
// CHECK-NEXT:     summary: stat
// CHECK-NEXT:              ^~~~
// CHECK-NEXT:              stats
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}summary-near-miss.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
