// An 'at' that is a list.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: [train, step]

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
// CHECK-NEXT: {{.*}}at-list.cpp.tmp.yaml:3:9: error: 'at' is a string; a value that starts with '[' is a YAML list: write it in quotes
// CHECK-NEXT:   - at: [train, step]
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}at-list.cpp.tmp.yaml:3:9: error: 'at' is a string; a value that starts with '[' is a YAML list: write it in quotes
// CHECK-NEXT:   - at: [train, step]
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}at-list.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
