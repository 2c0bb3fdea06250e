// A number as the selector (found: a function named '123', "matches nothing").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: 123

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
// CHECK-NEXT: {{.*}}number.cpp.tmp.yaml:3:9: error: '123' is not a name: a function or variable name starts with a letter or '_'
// CHECK-NEXT:   - at: 123
// CHECK-NEXT:         ^~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}number.cpp.tmp.yaml:3:9: error: '123' is not a name: a function or variable name starts with a letter or '_'
// CHECK-NEXT:   - at: 123
// CHECK-NEXT:         ^~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}number.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
