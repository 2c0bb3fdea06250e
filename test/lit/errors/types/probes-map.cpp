// 'probes' given as a map instead of a list.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   at: "train"

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
// CHECK-NEXT: {{.*}}probes-map.cpp.tmp.yaml:3:3: error: 'probes' is a list of entries ('- at: ...')
// CHECK-NEXT:   at: "train"
// CHECK-NEXT:   ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}probes-map.cpp.tmp.yaml:3:3: error: 'probes' is a list of entries ('- at: ...')
// CHECK-NEXT:   at: "train"
// CHECK-NEXT:   ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}probes-map.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
