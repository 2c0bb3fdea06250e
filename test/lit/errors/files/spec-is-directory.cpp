// A spec path that is a directory.
//
// RUN: rm -rf %t.d.yaml
// RUN: mkdir -p %t.d.yaml
// RUN: %refused 1 %t.d.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}spec-is-directory.cpp.tmp.d.yaml: error: cannot read the spec: Is a directory
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}spec-is-directory.cpp.tmp.d.yaml: error: cannot read the spec: Is a directory
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}spec-is-directory.cpp.tmp.d.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
