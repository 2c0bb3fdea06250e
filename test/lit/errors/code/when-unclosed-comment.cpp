// An unclosed '/*' in 'when' (found: "sonde-rewrite produced code that
// does not compile (a sonde bug ...)").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "loss > 0 /* positive"

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
// CHECK-NEXT: {{.*}}when-unclosed-comment.cpp.tmp.yaml:4:21: error: this '/*' comment is not closed in 'when'
// CHECK-NEXT:     when: "loss > 0 /* positive"
// CHECK-NEXT:                     ^~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-unclosed-comment.cpp.tmp.yaml:4:21: error: this '/*' comment is not closed in 'when'
// CHECK-NEXT:     when: "loss > 0 /* positive"
// CHECK-NEXT:                     ^~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-unclosed-comment.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
