// A translation unit the spec does not touch compiles to the very object a
// plain compile makes (nothing inserted, no runtime header), and one whose
// only mention is a context frame (`main` in `main > tick > #enter`) is instrumented:
// the frame marks `main` active.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -O1 -g0 -c %s -o %t/plain.o
// RUN: %cxx -std=c++17 -O1 -g0 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/none.sites -c %s -o %t/plugin.o
// RUN: cmp %t/plain.o %t/plugin.o
// RUN: count 0 < %t/none.sites
// RUN: %cxx -std=c++17 -DCALLER %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/caller.sites -c %s -o %t/caller.o
// RUN: /usr/lib/llvm-19/bin/llvm-nm -C %t/caller.o | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > tick > #enter"
// SPEC:     category: compute

int unrelated(int x) { return x * 3; }

#ifdef CALLER
int tick(int);
int main() { return tick(1); }
#endif

// CHECK: sonde
