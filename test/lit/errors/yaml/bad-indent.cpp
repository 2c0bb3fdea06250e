// A key indented deeper than its siblings.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:       category: compute
// SPEC:     name: x

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
// CHECK-NEXT: {{.*}}bad-indent.cpp.tmp.yaml:4:7: error: invalid YAML: this line is not aligned with the keys above it (end of map not found)
// CHECK-NEXT:       category: compute
// CHECK-NEXT:       ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}bad-indent.cpp.tmp.yaml:4:7: error: invalid YAML: this line is not aligned with the keys above it (end of map not found)
// CHECK-NEXT:       category: compute
// CHECK-NEXT:       ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}bad-indent.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
