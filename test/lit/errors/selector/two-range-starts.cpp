// Two range starts in one frame.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train(!#enter, !#loop, !!#exit)"

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
// CHECK-NEXT: {{.*}}two-range-starts.cpp.tmp.yaml:3:25: error: a frame has one range start
// CHECK-NEXT:   - at: "train(!#enter, !#loop, !!#exit)"
// CHECK-NEXT:                         ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}two-range-starts.cpp.tmp.yaml:3:25: error: a frame has one range start
// CHECK-NEXT:   - at: "train(!#enter, !#loop, !!#exit)"
// CHECK-NEXT:                         ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}two-range-starts.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
