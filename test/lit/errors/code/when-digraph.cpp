// A digraph '%>' closes a brace nobody opened (found: "a sonde bug").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: 'loss > 0 %>'

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
// CHECK-NEXT: {{.*}}when-digraph.cpp.tmp.yaml:4:21: error: '%>' closes a bracket that 'when' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     when: 'loss > 0 %>'
// CHECK-NEXT:                     ^~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-digraph.cpp.tmp.yaml:4:21: error: '%>' closes a bracket that 'when' did not open; spec code is one C++ expression, which sonde puts in parentheses
// CHECK-NEXT:     when: 'loss > 0 %>'
// CHECK-NEXT:                     ^~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-digraph.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
