// An unquoted selector with ' #': YAML reads the rest as a comment (found:
// "expected a frame after '>'", and nothing about the comment).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: train > #loop_epoch

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
// CHECK-NEXT: {{.*}}unquoted-comment.cpp.tmp.yaml:3:16: error: expected a frame after '>'; the rest of the line, from ' #', is a YAML comment: write the selector in quotes
// CHECK-NEXT:   - at: train > #loop_epoch
// CHECK-NEXT:                ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unquoted-comment.cpp.tmp.yaml:3:16: error: expected a frame after '>'; the rest of the line, from ' #', is a YAML comment: write the selector in quotes
// CHECK-NEXT:   - at: train > #loop_epoch
// CHECK-NEXT:                ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unquoted-comment.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
