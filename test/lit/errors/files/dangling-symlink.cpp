// A spec that is a symlink to nothing.
//
// RUN: ln -sf %t.nowhere.yaml %t.link.yaml
// RUN: %refused 1 %t.link.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}dangling-symlink.cpp.tmp.link.yaml: error: cannot read the spec: No such file or directory
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}dangling-symlink.cpp.tmp.link.yaml: error: cannot read the spec: No such file or directory
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}dangling-symlink.cpp.tmp.link.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
