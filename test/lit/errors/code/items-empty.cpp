// An empty 'items' expression.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     items: ""

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-empty.cpp.tmp.yaml:4:13: error: 'items' is empty; write a C++ expression
// CHECK-NEXT:     items: ""
// CHECK-NEXT:             ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-empty.cpp.tmp.yaml:4:13: error: 'items' is empty; write a C++ expression
// CHECK-NEXT:     items: ""
// CHECK-NEXT:             ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}items-empty.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
