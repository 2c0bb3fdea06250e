// 'check' on a region: it checks a watched value.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     check: finite

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}check-on-probe.cpp.tmp.yaml:4:12: error: 'check' applies to watches only
// CHECK-NEXT:     check: finite
// CHECK-NEXT:            ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}check-on-probe.cpp.tmp.yaml:4:12: error: 'check' applies to watches only
// CHECK-NEXT:     check: finite
// CHECK-NEXT:            ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}check-on-probe.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
