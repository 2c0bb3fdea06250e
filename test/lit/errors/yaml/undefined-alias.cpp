// An alias to an anchor never defined.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - *missing

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
// CHECK-NEXT: {{.*}}undefined-alias.cpp.tmp.yaml:3:5: error: invalid YAML: the referenced anchor is not defined
// CHECK-NEXT:   - *missing
// CHECK-NEXT:     ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}undefined-alias.cpp.tmp.yaml:3:5: error: invalid YAML: the referenced anchor is not defined
// CHECK-NEXT:   - *missing
// CHECK-NEXT:     ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}undefined-alias.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
