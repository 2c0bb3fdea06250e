// A site that cannot be instrumented is an error under --strict.
//
// RUN: %spec
// RUN: env REWRITE_FLAGS=--strict PLUGIN_FLAGS=-fplugin-arg-sonde-strict %refused 2 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > epoch"

void step(int n) {}
float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    loss += 1.0f / (epoch + 1);
    step(epoch);
  }
  return loss;
}

// CHECK: rewrite: exit 2
// CHECK-NEXT: {{.*}}skipped-strict.cpp:13:12: error: probe 'train > epoch' skipped: 'epoch' is declared where no statement can follow (a for-init, an if/switch init or a switch condition) [sonde-unsupported]
// CHECK-NEXT:    13 |   for (int epoch = 0; epoch < epochs; ++epoch) {
// CHECK-NEXT:       |            ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}skipped-strict.cpp:13:12: error: probe 'train > epoch' skipped: 'epoch' is declared where no statement can follow (a for-init, an if/switch init or a switch condition) [sonde-unsupported]
// CHECK-NEXT:    13 |   for (int epoch = 0; epoch < epochs; ++epoch) {
// CHECK-NEXT:       |            ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
