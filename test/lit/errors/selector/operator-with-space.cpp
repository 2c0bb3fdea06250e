// 'operator >' with a space reads the '>' as the one between frames (C++'s
// 'operator >' is written 'operator>' here); the message says what follows.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "A::operator > x"

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
// CHECK-NEXT: {{.*}}operator-with-space.cpp.tmp.yaml:3:10: error: 'x' is a value; move this probe under 'watches:'
// CHECK-NEXT:   - at: "A::operator > x"
// CHECK-NEXT:          ^~~~~~~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}operator-with-space.cpp.tmp.yaml:3:10: error: 'x' is a value; move this probe under 'watches:'
// CHECK-NEXT:   - at: "A::operator > x"
// CHECK-NEXT:          ^~~~~~~~~~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}operator-with-space.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
