// A '/FILEGLOB/' before a variable.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "/a.cpp/$x"

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
// CHECK-NEXT: {{.*}}fileglob-on-item.cpp.tmp.yaml:3:10: error: a '/FILEGLOB/' must be followed by a function
// CHECK-NEXT:   - at: "/a.cpp/$x"
// CHECK-NEXT:          ^~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}fileglob-on-item.cpp.tmp.yaml:3:10: error: a '/FILEGLOB/' must be followed by a function
// CHECK-NEXT:   - at: "/a.cpp/$x"
// CHECK-NEXT:          ^~~~~~~
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}fileglob-on-item.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
