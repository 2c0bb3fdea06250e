// A probe listed twice through an alias (found: "probes on lines 3 and 3
// both record region 'train'").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - &p {at: "train"}
// SPEC:   - *p

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
// CHECK-NEXT: {{.*}}alias-repeats-probe.cpp.tmp.yaml:3:5: error: the probe on line 3 is listed again through a YAML alias; every hit would be recorded twice
// CHECK-NEXT:   - &p {at: "train"}
// CHECK-NEXT:     ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}alias-repeats-probe.cpp.tmp.yaml:3:5: error: the probe on line 3 is listed again through a YAML alias; every hit would be recorded twice
// CHECK-NEXT:   - &p {at: "train"}
// CHECK-NEXT:     ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}alias-repeats-probe.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
