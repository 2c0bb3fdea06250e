// --in-place never writes outside the tree: the current directory, with
// symlinks resolved. A source that is (or lies under) a symlink into the
// tree is rewritten where it really is, and the link stays a link; one that
// leads out of the tree is refused (exit 2) and left as it was.
//
// RUN: rm -rf %t && mkdir -p %t/tree/src %t/outside
// RUN: cp %S/Inputs/a.cpp %t/tree/src/a.cpp
// RUN: cp %S/Inputs/a.cpp %t/tree/src/real.cpp
// RUN: cp %S/Inputs/b.cpp %t/outside/b.cpp
// RUN: ln -s ../../outside/b.cpp %t/tree/src/out-link.cpp
// RUN: ln -s real.cpp %t/tree/src/in-link.cpp
// RUN: ln -s ../../outside %t/tree/src/out-dir
//
// A link out of the tree, and a file under a linked directory: refused.
// RUN: cd %t/tree && %not %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/out-link.cpp src/out-dir/b.cpp src/a.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt --match-full-lines
// CHECK-DAG: sonde-rewrite: error: 'src/out-link.cpp' is '{{.*}}/outside/b.cpp', outside the tree being rewritten ('{{.*}}/tree', the current directory); not replaced
// CHECK-DAG: sonde-rewrite: error: 'src/out-dir/b.cpp' is '{{.*}}/outside/b.cpp', outside the tree being rewritten ('{{.*}}/tree', the current directory); not replaced
// RUN: cmp %S/Inputs/b.cpp %t/outside/b.cpp
// RUN: ls %t/outside | FileCheck %s --check-prefix=OUTSIDE --match-full-lines
// OUTSIDE: b.cpp
// OUTSIDE-NOT: {{.}}
// The file inside the tree given with them was still rewritten.
// RUN: FileCheck %s --check-prefix=DONE --input-file %t/tree/src/a.cpp
// DONE: int step(int x) { static ::sonde::Site
//
// A link inside the tree: the target is rewritten, the link stays a link.
// RUN: cd %t/tree && %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/in-link.cpp -- -std=c++17
// RUN: test -L %t/tree/src/in-link.cpp
// RUN: FileCheck %s --check-prefix=DONE --input-file %t/tree/src/real.cpp
