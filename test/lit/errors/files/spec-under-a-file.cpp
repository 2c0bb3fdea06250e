// A spec path whose directory is a file.
//
// RUN: %refused 1 %s/probes.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}spec-under-a-file.cpp/probes.yaml: error: cannot read the spec: Not a directory
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}spec-under-a-file.cpp/probes.yaml: error: cannot read the spec: Not a directory
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}spec-under-a-file.cpp/probes.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
