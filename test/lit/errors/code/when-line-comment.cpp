// A '//' comment in 'when' would comment out the rest of the source line
// (found: sonde-rewrite called the result its own bug, the plugin blamed
// the for loop below).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "loss > 0 // only positive"

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
// CHECK-NEXT: {{.*}}when-line-comment.cpp.tmp.yaml:4:21: error: a '//' comment in 'when' would hide the rest of the source line; use '/* ... */' or no comment
// CHECK-NEXT:     when: "loss > 0 // only positive"
// CHECK-NEXT:                     ^~~~~~~~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-line-comment.cpp.tmp.yaml:4:21: error: a '//' comment in 'when' would hide the rest of the source line; use '/* ... */' or no comment
// CHECK-NEXT:     when: "loss > 0 // only positive"
// CHECK-NEXT:                     ^~~~~~~~~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-line-comment.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
