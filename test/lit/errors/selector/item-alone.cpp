// A variable with no function.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "loss"

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
// CHECK-NEXT: {{.*}}item-alone.cpp.tmp.yaml:3:10: error: 'loss' names a function (a region); to watch a variable, name its function: 'F > loss'; regions go under 'probes:'
// CHECK-NEXT:   - at: "loss"
// CHECK-NEXT:          ^~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}item-alone.cpp.tmp.yaml:3:10: error: 'loss' names a function (a region); to watch a variable, name its function: 'F > loss'; regions go under 'probes:'
// CHECK-NEXT:   - at: "loss"
// CHECK-NEXT:          ^~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}item-alone.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
