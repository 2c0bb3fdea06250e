// A spec without read permission (root reads anything, so not as root).
//
// UNSUPPORTED: root
//
// RUN: rm -f %t.locked.yaml
// RUN: echo 'version: 1' > %t.locked.yaml
// RUN: chmod 000 %t.locked.yaml
// RUN: %refused 1 %t.locked.yaml %s | FileCheck %s --match-full-lines

void step(int n) {}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}unreadable.cpp.tmp.locked.yaml: error: cannot read the spec: Permission denied
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}unreadable.cpp.tmp.locked.yaml: error: cannot read the spec: Permission denied
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}unreadable.cpp.tmp.locked.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end
