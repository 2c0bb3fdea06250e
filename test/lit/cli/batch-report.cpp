// A batch rewrite reports per file (issue 12 item 10): when one source
// does not parse, the others are not written either (a batch is written
// whole or not at all), and the tool says so, naming each file.
//
// RUN: rm -rf %t && mkdir -p %t/src && cp %S/Inputs/a.cpp %S/Inputs/b.cpp %S/Inputs/broken.cpp %t/src/
// RUN: cd %t && %not %sonde-rewrite --spec %S/Inputs/probes.yaml -o out src/a.cpp src/b.cpp src/broken.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt
// CHECK: [1/3] src/a.cpp{{$}}
// CHECK: [2/3] src/b.cpp{{$}}
// CHECK: broken.cpp:1:{{[0-9]+}}: error:
// CHECK: [3/3] src/broken.cpp: not instrumented
// CHECK: sonde-rewrite: error: nothing written (1 of 3 sources could not be instrumented: src/broken.cpp; a batch is written whole or not at all): src/a.cpp, src/b.cpp, src/broken.cpp not written
// RUN: %not ls %t/out
//
// --in-place says the files are left unchanged.
// RUN: cd %t && %not %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/a.cpp src/broken.cpp -- -std=c++17 2>&1 | FileCheck %s --check-prefix=INPLACE
// INPLACE: sonde-rewrite: error: nothing written (1 of 2 sources could not be instrumented: src/broken.cpp; a batch is written whole or not at all): src/a.cpp, src/broken.cpp left unchanged
// RUN: cmp %S/Inputs/a.cpp %t/src/a.cpp
//
// A flag clang does not know (g++'s own) is dropped from the parse, named
// once for the whole batch, and never blamed on sonde.
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml -o out2 src/a.cpp src/b.cpp -- -std=c++17 -fconcepts-diagnostics-depth=2 2> %t/flag.txt
// RUN: FileCheck %s --check-prefix=FLAG --input-file %t/flag.txt
// FLAG: sonde-rewrite: warning: clang does not know the flag '-fconcepts-diagnostics-depth=2'; sonde-rewrite parses without it (the compiler that builds the result still gets it)
// FLAG-NOT: -fconcepts-diagnostics-depth
// FLAG-NOT: sonde bug
// FLAG-NOT: error
// RUN: FileCheck %s --check-prefix=WRITTEN --input-file %t/out2/src/b.cpp
// WRITTEN: int step2(int x) { static ::sonde::Site
