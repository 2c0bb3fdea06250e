// The same arg name twice.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: {e: epochs, e: epochs}

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
// CHECK-NEXT: {{.*}}duplicate-arg.cpp.tmp.yaml:4:23: error: duplicate key 'e' (first given on line 4)
// CHECK-NEXT:     args: {e: epochs, e: epochs}
// CHECK-NEXT:                       ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}duplicate-arg.cpp.tmp.yaml:4:23: error: duplicate key 'e' (first given on line 4)
// CHECK-NEXT:     args: {e: epochs, e: epochs}
// CHECK-NEXT:                       ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}duplicate-arg.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
