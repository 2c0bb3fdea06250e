// A capture not in scope where the focus fires: a warning, an error under --strict.
//
// RUN: %spec
// RUN: env REWRITE_FLAGS=--strict PLUGIN_FLAGS=-fplugin-arg-sonde-strict %refused 2 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(epoch) > loss"

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
// CHECK-NEXT: {{.*}}capture-not-in-scope.cpp:12:9: error: capture 'epoch' of probe 'train(epoch) > loss' is not in scope here; recorded without it [sonde-capture]
// CHECK-NEXT:    12 |   float loss = 0;
// CHECK-NEXT:       |         ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-not-in-scope.cpp:12:9: error: capture 'epoch' of probe 'train(epoch) > loss' is not in scope here; recorded without it [sonde-capture]
// CHECK-NEXT:    12 |   float loss = 0;
// CHECK-NEXT:       |         ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
