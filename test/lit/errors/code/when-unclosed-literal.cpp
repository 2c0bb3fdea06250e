// An unclosed string literal would run on over the rest of the line.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: 'loss > 0 && "abc'

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
// CHECK-NEXT: {{.*}}when-unclosed-literal.cpp.tmp.yaml:4:24: error: this literal is not closed in 'when'
// CHECK-NEXT:     when: 'loss > 0 && "abc'
// CHECK-NEXT:                        ^~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-unclosed-literal.cpp.tmp.yaml:4:24: error: this literal is not closed in 'when'
// CHECK-NEXT:     when: 'loss > 0 && "abc'
// CHECK-NEXT:                        ^~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-unclosed-literal.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
