// Two expressions for one count: a top-level ',' drops the left side.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     items: "epochs, 2"

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-top-level-comma.cpp.tmp.yaml:4:19: error: {{.*}}
// CHECK-NEXT:     items: "epochs, 2"
// CHECK-NEXT:                   ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-top-level-comma.cpp.tmp.yaml:4:19: error: {{.*}}
// CHECK-NEXT:     items: "epochs, 2"
// CHECK-NEXT:                   ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}items-top-level-comma.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
