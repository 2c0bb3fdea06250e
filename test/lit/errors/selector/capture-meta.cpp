// A meta cannot be captured.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train(#enter) > loss"

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
// CHECK-NEXT: {{.*}}capture-meta.cpp.tmp.yaml:3:16: error: a capture is a variable name ('x' or 'x as y'); '#enter' cannot be captured
// CHECK-NEXT:   - at: "train(#enter) > loss"
// CHECK-NEXT:                ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-meta.cpp.tmp.yaml:3:16: error: a capture is a variable name ('x' or 'x as y'); '#enter' cannot be captured
// CHECK-NEXT:   - at: "train(#enter) > loss"
// CHECK-NEXT:                ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}capture-meta.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
