// A 'name' that is a map.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     name: {a: b}

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
// CHECK-NEXT: {{.*}}name-map.cpp.tmp.yaml:4:11: error: 'name' is a string; a value that starts with '{' is a YAML map: write it in quotes
// CHECK-NEXT:     name: {a: b}
// CHECK-NEXT:           ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}name-map.cpp.tmp.yaml:4:11: error: 'name' is a string; a value that starts with '{' is a YAML map: write it in quotes
// CHECK-NEXT:     name: {a: b}
// CHECK-NEXT:           ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}name-map.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
