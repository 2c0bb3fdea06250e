// A scope rule with both include and exclude.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - {include: a.cpp, exclude: b.cpp}
// SPEC: probes:
// SPEC:   - at: "train"

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
// CHECK-NEXT: {{.*}}scope-rule-two-keys.cpp.tmp.yaml:3:5: error: a scope rule is one 'include:' or 'exclude:' with 'file' and/or 'function'
// CHECK-NEXT:   - {include: a.cpp, exclude: b.cpp}
// CHECK-NEXT:     ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}scope-rule-two-keys.cpp.tmp.yaml:3:5: error: a scope rule is one 'include:' or 'exclude:' with 'file' and/or 'function'
// CHECK-NEXT:   - {include: a.cpp, exclude: b.cpp}
// CHECK-NEXT:     ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}scope-rule-two-keys.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
