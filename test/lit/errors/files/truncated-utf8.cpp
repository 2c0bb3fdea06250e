// A spec that ends inside a UTF-8 sequence.
//
// RUN: printf 'version: 1\nprobes:\n  - at: "train"\n    name: caf\303' > %t.cut.yaml
// RUN: %refused 1 %t.cut.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}truncated-utf8.cpp.tmp.cut.yaml:4:14: error: the spec is not UTF-8 text (byte 0xc3)
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}truncated-utf8.cpp.tmp.cut.yaml:4:14: error: the spec is not UTF-8 text (byte 0xc3)
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}truncated-utf8.cpp.tmp.cut.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
