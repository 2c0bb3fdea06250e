// An unquoted selector that starts with '*' is a YAML alias (found:
// "the referenced anchor is not defined", and nothing about quotes).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: *::forward

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
// CHECK-NEXT: {{.*}}unquoted-star.cpp.tmp.yaml:3:9: error: invalid YAML: the referenced anchor is not defined; a value that starts with '*' is a YAML alias: write the value in quotes
// CHECK-NEXT:   - at: *::forward
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unquoted-star.cpp.tmp.yaml:3:9: error: invalid YAML: the referenced anchor is not defined; a value that starts with '*' is a YAML alias: write the value in quotes
// CHECK-NEXT:   - at: *::forward
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unquoted-star.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
