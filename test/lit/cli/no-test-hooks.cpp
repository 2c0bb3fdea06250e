// The installed sonde-rewrite has no test seams (issue 12 item 12): the
// environment variables of the test-only build (sonde-rewrite-test-hooks)
// run no command in it. The test-only build does run them.
//
// RUN: rm -rf %t && mkdir -p %t/src && cp %S/Inputs/a.cpp %t/src/
// RUN: cd %t && env "SONDE_REWRITE_TEST_BEFORE_WRITE=touch %t/before" "SONDE_REWRITE_TEST_AFTER_READ=touch %t/after" %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/a.cpp -- -std=c++17
// RUN: ls %t | FileCheck %s --check-prefix=SHIPPED --match-full-lines
// SHIPPED: src
// SHIPPED-NOT: {{.}}
//
// RUN: cp %S/Inputs/a.cpp %t/src/
// RUN: cd %t && env "SONDE_REWRITE_TEST_BEFORE_WRITE=touch %t/before" "SONDE_REWRITE_TEST_AFTER_READ=touch %t/after" %sonde-rewrite-test-hooks --spec %S/Inputs/probes.yaml --in-place src/a.cpp -- -std=c++17
// RUN: ls %t | FileCheck %s --check-prefix=TESTBUILD --match-full-lines
// TESTBUILD: after
// TESTBUILD-NEXT: before
// TESTBUILD-NEXT: src
//
// RUN: strings %sonde-rewrite | FileCheck %s --check-prefix=STRINGS
// STRINGS-NOT: SONDE_REWRITE_TEST_
