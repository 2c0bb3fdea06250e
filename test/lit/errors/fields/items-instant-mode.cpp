// 'items' with 'mode: instant': the region is two instants, no duration.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     mode: instant
// SPEC:     items: "epochs"

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-instant-mode.cpp.tmp.yaml:5:13: error: 'items' needs a region recorded as one record; 'mode: instant' records a start and a stop instant
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-instant-mode.cpp.tmp.yaml:5:13: error: 'items' needs a region recorded as one record; 'mode: instant' records a start and a stop instant
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}items-instant-mode.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
