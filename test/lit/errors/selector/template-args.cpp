// Template arguments in a selector (found: "expected '>' between frames,
// found '<'").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train<int>"

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
// CHECK-NEXT: {{.*}}template-args.cpp.tmp.yaml:3:15: error: template arguments are not written in a selector: 'train' matches the template, its instantiations and its specializations
// CHECK-NEXT:   - at: "train<int>"
// CHECK-NEXT:               ^~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}template-args.cpp.tmp.yaml:3:15: error: template arguments are not written in a selector: 'train' matches the template, its instantiations and its specializations
// CHECK-NEXT:   - at: "train<int>"
// CHECK-NEXT:               ^~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}template-args.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
