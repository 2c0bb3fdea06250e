// A capture that no function a glob host matches declares is an error; one
// that some matched function declares is not (the others get the usual
// per-site warning), so a glob with a capture stays usable.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train_*(epoch, stepz) > loss"

float train_a(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}
float train_b(int steps) {
  float loss = 0;
  for (int step = 0; step < steps; ++step)
    loss += 1.0f / (step + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}capture-undeclared-glob.cpp.tmp.yaml:3:25: error: capture 'stepz' of probe 'train_*(epoch, stepz) > loss' names no parameter or local variable of any function it matches ('train_a', 'train_b')
// CHECK-NEXT:   - at: "train_*(epoch, stepz) > loss"
// CHECK-NEXT:                         ^~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-undeclared-glob.cpp.tmp.yaml:3:25: error: capture 'stepz' of probe 'train_*(epoch, stepz) > loss' names no parameter or local variable of any function it matches ('train_a', 'train_b')
// CHECK-NEXT:   - at: "train_*(epoch, stepz) > loss"
// CHECK-NEXT:                         ^~~~~
// CHECK-NEXT: error: sonde: errors in probe spec '{{.*}}capture-undeclared-glob.cpp.tmp.yaml' (above); this file is not instrumented
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
