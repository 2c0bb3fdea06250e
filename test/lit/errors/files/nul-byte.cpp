// A spec with a NUL byte (a binary file).
//
// RUN: printf 'version: 1\nprobes:\n  - at: "tr\000ain"\n' > %t.nul.yaml
// RUN: %refused 1 %t.nul.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}nul-byte.cpp.tmp.nul.yaml:3:12: error: the spec holds a NUL byte; a probe spec is UTF-8 text
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}nul-byte.cpp.tmp.nul.yaml:3:12: error: the spec holds a NUL byte; a probe spec is UTF-8 text
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}nul-byte.cpp.tmp.nul.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
