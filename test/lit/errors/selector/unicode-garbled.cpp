// A character that is no identifier after a Unicode name, which is a name
// (found: the name was refused, the message printing half of its UTF-8
// sequence). LLVM prints no caret under a line with non-ASCII text.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > größe%"

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
// CHECK-NEXT: {{.*}}unicode-garbled.cpp.tmp.yaml:3:25: error: expected '>' between frames, found '%'
// CHECK-NEXT:   - at: "train > größe%"
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unicode-garbled.cpp.tmp.yaml:3:25: error: expected '>' between frames, found '%'
// CHECK-NEXT:   - at: "train > größe%"
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unicode-garbled.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
