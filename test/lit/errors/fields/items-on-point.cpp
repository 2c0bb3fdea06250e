// 'items' on a point event (#enter): rates need a duration.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #enter"
// SPEC:     items: "epochs"

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-on-point.cpp.tmp.yaml:4:13: error: 'items' needs a region with a duration; 'train > #enter' is a point in time (put it on the function or the loop)
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-on-point.cpp.tmp.yaml:4:13: error: 'items' needs a region with a duration; 'train > #enter' is a point in time (put it on the function or the loop)
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}items-on-point.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
