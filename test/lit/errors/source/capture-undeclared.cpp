// A capture that the function never declares: a mistake in the spec, an
// error at the capture in the spec through both front doors (a name that is
// declared but out of scope at some sites stays a warning:
// capture-not-in-scope.cpp).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "toy::train_epoch(nosuchvar as x) > loss"

namespace toy {
float train_epoch(int steps) {
  float loss = 0;
  for (int step = 0; step < steps; ++step)
    loss += 1.0f / (step + 1);
  return loss;
}
} // namespace toy

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}capture-undeclared.cpp.tmp.yaml:3:27: error: capture 'nosuchvar' of probe 'toy::train_epoch(nosuchvar as x) > loss' names no parameter or local variable of 'toy::train_epoch'
// CHECK-NEXT:   - at: "toy::train_epoch(nosuchvar as x) > loss"
// CHECK-NEXT:                           ^~~~~~~~~~~~~~
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}capture-undeclared.cpp.tmp.yaml:3:27: error: capture 'nosuchvar' of probe 'toy::train_epoch(nosuchvar as x) > loss' names no parameter or local variable of 'toy::train_epoch'
// CHECK-NEXT:   - at: "toy::train_epoch(nosuchvar as x) > loss"
// CHECK-NEXT:                           ^~~~~~~~~~~~~~
// CHECK-NEXT: error: sonde: errors in probe spec '{{.*}}capture-undeclared.cpp.tmp.yaml' (above); this file is not instrumented
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
