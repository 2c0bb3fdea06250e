// A spec with a byte that is not UTF-8 (Latin-1 'e acute').
//
// RUN: printf 'version: 1\nprobes:\n  - at: "train"\n    category: comp\351te\n' > %t.latin1.yaml
// RUN: %refused 1 %t.latin1.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}non-utf8.cpp.tmp.latin1.yaml:4:19: error: the spec is not UTF-8 text (byte 0xe9)
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}non-utf8.cpp.tmp.latin1.yaml:4:19: error: the spec is not UTF-8 text (byte 0xe9)
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}non-utf8.cpp.tmp.latin1.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
