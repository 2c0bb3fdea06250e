// A 'name' with a line break (found: accepted, the break dropped: 'ab').
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     name: "a\nb"

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
// CHECK-NEXT: {{.*}}name-control.cpp.tmp.yaml:4:12: error: 'name' holds a control character (0x0a); it is printable text
// CHECK-NEXT:     name: "a\nb"
// CHECK-NEXT:            ^~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}name-control.cpp.tmp.yaml:4:12: error: 'name' holds a control character (0x0a); it is printable text
// CHECK-NEXT:     name: "a\nb"
// CHECK-NEXT:            ^~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}name-control.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
