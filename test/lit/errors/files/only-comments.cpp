// A spec of comments only.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: # probes for later
// SPEC: # - at: train

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
// CHECK-NEXT: {{.*}}only-comments.cpp.tmp.yaml: error: the spec is empty; write 'version: 1' and the probes under 'probes:' (regions) or 'watches:' (values)
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}only-comments.cpp.tmp.yaml: error: the spec is empty; write 'version: 1' and the probes under 'probes:' (regions) or 'watches:' (values)
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}only-comments.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
