// An empty 'name' (found: accepted, and the default name used).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     name: ""

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
// CHECK-NEXT: {{.*}}name-empty.cpp.tmp.yaml:4:12: error: 'name' is empty; remove it to name the event after its category or function
// CHECK-NEXT:     name: ""
// CHECK-NEXT:            ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}name-empty.cpp.tmp.yaml:4:12: error: 'name' is empty; remove it to name the event after its category or function
// CHECK-NEXT:     name: ""
// CHECK-NEXT:            ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}name-empty.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
