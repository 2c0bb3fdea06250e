// A '!!binary' tag: sonde would read the base64 text as a selector (it
// said "ptera's '=value' filter" of 'aGVsbG8=').
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: !!binary aGVsbG8=

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}binary-tag.cpp.tmp.yaml:3:9: error: YAML tags ('!!binary') are not supported; a probe spec holds plain strings, numbers and booleans
// CHECK-NEXT:   - at: !!binary aGVsbG8=
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}binary-tag.cpp.tmp.yaml:3:9: error: YAML tags ('!!binary') are not supported; a probe spec holds plain strings, numbers and booleans
// CHECK-NEXT:   - at: !!binary aGVsbG8=
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}binary-tag.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
