// Every problem is reported, not only the first.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     categroy: compute
// SPEC:     wen: x
// SPEC:   - at: "step"
// SPEC:     evrey: 2

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
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:4:5: error: unknown probe key 'categroy'; did you mean 'category'?
// CHECK-NEXT:     categroy: compute
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT:     category
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:5:5: error: unknown probe key 'wen'; did you mean 'when'?
// CHECK-NEXT:     wen: x
// CHECK-NEXT:     ^~~
// CHECK-NEXT:     when
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:7:5: error: unknown probe key 'evrey'; did you mean 'every'?
// CHECK-NEXT:     evrey: 2
// CHECK-NEXT:     ^~~~~
// CHECK-NEXT:     every
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:4:5: error: unknown probe key 'categroy'; did you mean 'category'?
// CHECK-NEXT:     categroy: compute
// CHECK-NEXT:     ^~~~~~~~
// CHECK-NEXT:     category
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:5:5: error: unknown probe key 'wen'; did you mean 'when'?
// CHECK-NEXT:     wen: x
// CHECK-NEXT:     ^~~
// CHECK-NEXT:     when
// CHECK-NEXT: {{.*}}several.cpp.tmp.yaml:7:5: error: unknown probe key 'evrey'; did you mean 'every'?
// CHECK-NEXT:     evrey: 2
// CHECK-NEXT:     ^~~~~
// CHECK-NEXT:     every
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}several.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
