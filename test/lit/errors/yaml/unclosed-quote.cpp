// A quoted scalar that never closes.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train
// SPEC:     category: compute

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
// CHECK-NEXT: {{.*}}unclosed-quote.cpp.tmp.yaml:3:9: error: the selector's quote is not closed on its line, so the lines below became part of it
// CHECK-NEXT:   - at: "train
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unclosed-quote.cpp.tmp.yaml:3:9: error: the selector's quote is not closed on its line, so the lines below became part of it
// CHECK-NEXT:   - at: "train
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unclosed-quote.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
