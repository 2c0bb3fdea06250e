// A tab where YAML allows only spaces.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC: 	- at: "train"

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
// CHECK-NEXT: {{.*}}tab-indent.cpp.tmp.yaml:3:2: error: invalid YAML: illegal block entry; this line is indented with a tab, and YAML indents with spaces only
// CHECK-NEXT:         - at: "train"
// CHECK-NEXT:         ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}tab-indent.cpp.tmp.yaml:3:2: error: invalid YAML: illegal block entry; this line is indented with a tab, and YAML indents with spaces only
// CHECK-NEXT:         - at: "train"
// CHECK-NEXT:         ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}tab-indent.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
