// Categories are lower case.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     category: Compute.Forward

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
// CHECK-NEXT: {{.*}}capitals.cpp.tmp.yaml:4:15: error: unknown category 'Compute.Forward'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: Compute.Forward
// CHECK-NEXT:               ^~~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capitals.cpp.tmp.yaml:4:15: error: unknown category 'Compute.Forward'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: Compute.Forward
// CHECK-NEXT:               ^~~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}capitals.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
