// A naked function has no prologue and may hold only asm: nothing can be
// inserted in it. Skipped with a note.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute

extern "C" __attribute__((naked)) int seven() { __asm__("movl $7, %eax\n\tret"); }
// CHECK: {{^}}extern "C" __attribute__((naked)) int seven() { __asm__("movl $7, %eax\n\tret"); }
// DIAG: skip-naked.cpp:[[@LINE-2]]:39: warning: probe '*' skipped: 'seven': function is naked [sonde-unsupported]

__attribute__((always_inline)) inline int hot(int x) { return x + 1; }
// CHECK: {{^}}__attribute__((always_inline)) inline int hot(int x) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion
