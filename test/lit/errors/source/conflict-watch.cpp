// A variable watched by name and by '$x'.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:   - at: "train > $x"

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
// CHECK-NEXT: {{.*}}conflict-watch.cpp:13:9: error: probes on lines 3 and 4 of {{.*}}conflict-watch.cpp.tmp.yaml both record watch 'loss' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    13 |   float loss = 0;
// CHECK-NEXT:       |         ^
// CHECK-NEXT: {{.*}}conflict-watch.cpp:14:12: warning: probe 'train > $x' skipped: 'epoch' is declared where no statement can follow (a for-init, an if/switch init or a switch condition) [sonde-unsupported]
// CHECK-NEXT:    14 |   for (int epoch = 0; epoch < epochs; ++epoch) {
// CHECK-NEXT:       |            ^
// CHECK-NEXT: {{.*}}conflict-watch.cpp:15:10: error: probes on lines 3 and 4 of {{.*}}conflict-watch.cpp.tmp.yaml both record watch 'loss' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    15 |     loss += 1.0f / (epoch + 1);
// CHECK-NEXT:       |          ^
// CHECK-NEXT: 1 warning and 2 errors generated.
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}conflict-watch.cpp:13:9: error: probes on lines 3 and 4 of {{.*}}conflict-watch.cpp.tmp.yaml both record watch 'loss' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    13 |   float loss = 0;
// CHECK-NEXT:       |         ^
// CHECK-NEXT: {{.*}}conflict-watch.cpp:14:12: warning: probe 'train > $x' skipped: 'epoch' is declared where no statement can follow (a for-init, an if/switch init or a switch condition) [sonde-unsupported]
// CHECK-NEXT:    14 |   for (int epoch = 0; epoch < epochs; ++epoch) {
// CHECK-NEXT:       |            ^
// CHECK-NEXT: {{.*}}conflict-watch.cpp:15:10: error: probes on lines 3 and 4 of {{.*}}conflict-watch.cpp.tmp.yaml both record watch 'loss' here; remove one, or give one a 'name:' [sonde-conflict]
// CHECK-NEXT:    15 |     loss += 1.0f / (epoch + 1);
// CHECK-NEXT:       |          ^
// CHECK-NEXT: 1 warning and 2 errors generated.
// CHECK-NEXT: end
