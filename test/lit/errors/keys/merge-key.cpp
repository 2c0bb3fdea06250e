// A YAML merge key (found: "unknown probe key '<<'; did you mean 'at'?").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     category: compute
// SPEC:   - <<: {category: compute}
// SPEC:     at: "step"

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
// CHECK-NEXT: {{.*}}merge-key.cpp.tmp.yaml:5:5: error: YAML merge keys ('<<') are not supported; write the keys in each entry
// CHECK-NEXT:   - <<: {category: compute}
// CHECK-NEXT:     ^~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}merge-key.cpp.tmp.yaml:5:5: error: YAML merge keys ('<<') are not supported; write the keys in each entry
// CHECK-NEXT:   - <<: {category: compute}
// CHECK-NEXT:     ^~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}merge-key.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
