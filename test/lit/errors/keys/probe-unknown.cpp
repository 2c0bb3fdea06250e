// An unknown probe key lists the known ones.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     colour: red

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
// CHECK-NEXT: {{.*}}probe-unknown.cpp.tmp.yaml:4:5: error: unknown probe key 'colour'; expected one of at, category, name, args, context, when, every, items, summary, check, enabled, mode
// CHECK-NEXT:     colour: red
// CHECK-NEXT:     ^~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}probe-unknown.cpp.tmp.yaml:4:5: error: unknown probe key 'colour'; expected one of at, category, name, args, context, when, every, items, summary, check, enabled, mode
// CHECK-NEXT:     colour: red
// CHECK-NEXT:     ^~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}probe-unknown.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
