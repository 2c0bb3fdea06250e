// `#pragma once` after the first declaration: clang warns about it in a
// main file, and the file is instrumented with that warning kept (the
// nested parse runs instead of a split, where the rest would not be the
// primary file).
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/s.sites -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SITES --input-file %t/s.sites
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute

#include <vector>

int f() { return int(std::vector<int>{1}.size()); }

#pragma once
// CHECK: split-pragma-once.cpp:[[@LINE-1]]:9: warning: #pragma once in main file
// CHECK-NOT: warning:
// CHECK: 1 warning generated.
// SITES: region compute f {{.*}}split-pragma-once.cpp:17 f
