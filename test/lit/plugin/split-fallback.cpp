// Files the split compile handles in a special way; each is instrumented
// at the user's lines, with the nested parse's plan.
//  - this file: code before an #include. The split comes before the code;
//    the later header is parsed by both processes.
//  - Inputs/split-guarded.cpp: an #if still open at the first declaration
//    (an include guard): the nested parse runs.
//  - Inputs/split-line.cpp: a #line before the first declaration: the
//    nested parse runs.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/a.sites -fsyntax-only %s
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-nested-parse -fplugin-arg-sonde-list-sites=%t/an.sites -fsyntax-only %s
// RUN: diff %t/a.sites %t/an.sites
// RUN: FileCheck %s --input-file %t/a.sites
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/b.sites -fsyntax-only %S/Inputs/split-guarded.cpp
// RUN: FileCheck %s --check-prefix=GUARDED --input-file %t/b.sites
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/c.sites -fsyntax-only %S/Inputs/split-line.cpp
// RUN: FileCheck %s --check-prefix=LINE --input-file %t/c.sites
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "first"
// SPEC:     category: compute
// SPEC:   - at: "second"
// SPEC:     category: compute

int first() { return 1; }
#include <vector>
int second() { return int(std::vector<int>{1, 2}.size()); }

// CHECK: region compute first {{.*}}split-fallback.cpp:[[@LINE-4]] first
// CHECK: region compute second {{.*}}split-fallback.cpp:[[@LINE-3]] second
// GUARDED: region compute first {{.*}}split-guarded.cpp:7 first
// GUARDED: region compute second {{.*}}split-guarded.cpp:9 second
// LINE: region compute first {{.*}}split-line.cpp:100 first
// LINE: region compute second {{.*}}split-line.cpp:102 second
