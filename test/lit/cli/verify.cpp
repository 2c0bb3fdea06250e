// --verify compiles each instrumented text (syntax only) before writing it.
// Code that does not compile is sonde's error: reported at the source line,
// exit 2, nothing written. Without --verify the check runs only for spec
// code, and then errors outside spec code are reported the same way.
//
// RUN: %spec
// RUN: rm -rf %t.out && mkdir %t.out
// RUN: sh -c '%sonde-rewrite --verify --spec %t.yaml -o %t.out %S/Inputs/user-macro.cpp -- -std=c++17 2> %t.err; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --input-file %t.err
// RUN: find %t.out -type f | count 0
// EXIT: exit 2
// CHECK: user-macro.cpp:5: error: sonde-rewrite produced code that does not compile (a sonde bug; please report it with the spec and this file): no type named 'Shape' in namespace 'sonde'{{.*}}
// CHECK-NOT: error:
//
// A good file passes --verify and is written.
// RUN: %sonde-rewrite --verify --spec %t.yaml -o %t.out %S/Inputs/a.cpp -- -std=c++17
// RUN: find %t.out -type f | count 1
//
// Spec code makes the check run without --verify: the engine's error is
// still told apart from the spec's.
// RUN: printf 'version: 1\nprobes:\n  - at: "area"\n    category: compute\n    when: "s.w > 0"\n' > %t.when.yaml
// RUN: sh -c '%sonde-rewrite --spec %t.when.yaml %S/Inputs/user-macro.cpp -- -std=c++17 > /dev/null 2> %t.when.err; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --input-file %t.when.err
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
