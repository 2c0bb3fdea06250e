// '.init' on a category that is not a parent.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     category: compute.forward.init

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
// CHECK-NEXT: {{.*}}bad-init.cpp.tmp.yaml:4:15: error: unknown category 'compute.forward.init'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: compute.forward.init
// CHECK-NEXT:               ^~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}bad-init.cpp.tmp.yaml:4:15: error: unknown category 'compute.forward.init'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: compute.forward.init
// CHECK-NEXT:               ^~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}bad-init.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
