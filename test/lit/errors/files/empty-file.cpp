// A spec file of zero bytes.
//
// RUN: echo -n > %t.empty.yaml
// RUN: %refused 1 %t.empty.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}empty-file.cpp.tmp.empty.yaml: error: the spec is empty; write 'version: 1' and the probes under 'probes:' (regions) or 'watches:' (values)
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}empty-file.cpp.tmp.empty.yaml: error: the spec is empty; write 'version: 1' and the probes under 'probes:' (regions) or 'watches:' (values)
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}empty-file.cpp.tmp.empty.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
