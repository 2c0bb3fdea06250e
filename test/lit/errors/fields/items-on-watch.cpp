// 'items' on a watch: a count needs a region.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     items: "epochs"

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-on-watch.cpp.tmp.yaml:4:13: error: 'items' applies to regions under 'probes:'
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-on-watch.cpp.tmp.yaml:4:13: error: 'items' applies to regions under 'probes:'
// CHECK-NEXT:     items: "epochs"
// CHECK-NEXT:             ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}items-on-watch.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
