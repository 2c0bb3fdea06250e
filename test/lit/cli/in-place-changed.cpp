// --in-place refuses a file changed between its reading and its
// replacement. SONDE_REWRITE_TEST_BEFORE_WRITE, a seam of the test-only
// build sonde-rewrite-test-hooks, runs a command once before anything is
// written: here it edits b.cpp, so b.cpp keeps the edit and is not
// replaced, while a.cpp is.
//
// RUN: rm -rf %t && mkdir -p %t/src && cp %S/Inputs/a.cpp %S/Inputs/b.cpp %t/src/
// RUN: cd %t && env "SONDE_REWRITE_TEST_BEFORE_WRITE=echo '// edited meanwhile' >> src/b.cpp" %not %sonde-rewrite-test-hooks --spec %S/Inputs/probes.yaml --in-place src/a.cpp src/b.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt
// CHECK: sonde-rewrite: error: 'src/b.cpp' changed since it was read; not replaced
// RUN: FileCheck %s --check-prefix=EDITED --input-file %t/src/b.cpp --match-full-lines
// EDITED: int step2(int x) { return step2(x - 1); }
// EDITED-NEXT: // edited meanwhile
// RUN: FileCheck %s --check-prefix=DONE --input-file %t/src/a.cpp
// DONE: int step(int x) { static ::sonde::Site
//
// Nothing is left beside them.
// RUN: ls %t/src | FileCheck %s --check-prefix=LS --match-full-lines
// LS: a.cpp
// LS-NEXT: b.cpp
// LS-NOT: {{.}}
//
// The new file keeps the old one's permissions.
// RUN: cp %S/Inputs/a.cpp %t/src/c.cpp && chmod 640 %t/src/c.cpp
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/c.cpp -- -std=c++17
// RUN: stat -c %%a %t/src/c.cpp | FileCheck %s --check-prefix=MODE
// MODE: 640
