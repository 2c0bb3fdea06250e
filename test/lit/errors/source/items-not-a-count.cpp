// An 'items' expression that is not a count (a struct with no size()): the
// error is the spec's, at its line, through both front doors.
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     items: "cfg"

struct Config {
  int epochs;
};
float train(Config cfg) {
  float loss = 0;
  for (int epoch = 0; epoch < cfg.epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}items-not-a-count.cpp.tmp.yaml:4:13: error: no matching function for call to 'itemCount' (in {{.*}}items-not-a-count.cpp)
// CHECK-NEXT:     items: "cfg"
// CHECK-NEXT:             ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}items-not-a-count.cpp.tmp.yaml:4:13: error: no matching function for call to 'itemCount' (in {{.*}}items-not-a-count.cpp:15)
// CHECK-NEXT:     items: "cfg"
// CHECK-NEXT:             ^
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
