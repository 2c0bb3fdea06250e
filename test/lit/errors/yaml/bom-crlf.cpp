// A spec saved by a Windows editor: a byte-order mark and CRLF line ends.
// Both are read as YAML reads them, and an error is located as in any
// other spec (the line printed without its '\r').
//
// RUN: printf '\357\273\277version: 1\r\nprobes:\r\n  - at: "train"\r\n    category: compute.foward\r\n' > %t.yaml
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}bom-crlf.cpp.tmp.yaml:4:15: error: unknown category 'compute.foward'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: compute.foward
// CHECK-NEXT:               ^~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}bom-crlf.cpp.tmp.yaml:4:15: error: unknown category 'compute.foward'; did you mean 'compute.forward'?
// CHECK-NEXT:     category: compute.foward
// CHECK-NEXT:               ^~~~~~~~~~~~~~
// CHECK-NEXT:               compute.forward
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}bom-crlf.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
