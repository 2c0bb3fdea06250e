// Text where a '>' is expected.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train step"

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
// CHECK-NEXT: {{.*}}junk-between-frames.cpp.tmp.yaml:3:16: error: expected '>' between frames, found 's'
// CHECK-NEXT:   - at: "train step"
// CHECK-NEXT:                ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}junk-between-frames.cpp.tmp.yaml:3:16: error: expected '>' between frames, found 's'
// CHECK-NEXT:   - at: "train step"
// CHECK-NEXT:                ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}junk-between-frames.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
