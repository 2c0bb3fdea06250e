// -o DIR never writes outside DIR. A copy lands at DIR/<path relative to
// the current directory>; a source outside the current directory (`../x`,
// an absolute path) at DIR/<its absolute path>, so `..` never climbs out. A
// symlinked directory inside DIR that leads elsewhere is refused (exit 2),
// and an old copy that is a symlink is replaced, not written through.
//
// RUN: rm -rf %t && mkdir -p %t/work/src %t/up %t/elsewhere
// RUN: cp %S/Inputs/a.cpp %t/work/src/a.cpp
// RUN: cp %S/Inputs/b.cpp %t/up/b.cpp
//
// `../up/b.cpp` and an absolute path: under out/, at their absolute paths.
// RUN: cd %t/work && %sonde-rewrite --spec %S/Inputs/probes.yaml -o out ../up/b.cpp %t/up/b.cpp src/a.cpp -- -std=c++17 2> /dev/null
// The order of the listing depends on where the tree lives (`out/src` sorts
// before or after `out/<absolute path>`), so each file is checked on its own.
// RUN: cd %t/work && find out -type f | count 2
// RUN: cd %t/work && find out -type f | FileCheck %s --match-full-lines
// CHECK-DAG: out/src/a.cpp
// CHECK-DAG: out{{.*}}/up/b.cpp
// RUN: cmp %S/Inputs/b.cpp %t/up/b.cpp
// RUN: cd %t && find . -type f | count 4
// RUN: cd %t && find . -type f | FileCheck %s --check-prefix=ALL --match-full-lines
// ALL-DAG: ./up/b.cpp
// ALL-DAG: ./work/out/src/a.cpp
// ALL-DAG: ./work/out{{.*}}/up/b.cpp
// ALL-DAG: ./work/src/a.cpp
//
// A directory in DIR that is a symlink out of it: refused, nothing written
// there.
// RUN: rm -rf %t/work/out && mkdir -p %t/work/out && ln -s %t/elsewhere %t/work/out/src
// RUN: cd %t/work && %not %sonde-rewrite --spec %S/Inputs/probes.yaml -o out src/a.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=LINKED --input-file %t/err.txt --match-full-lines
// LINKED: sonde-rewrite: error: 'out/src/a.cpp' would be written outside 'out' (through 'out/src'); not written
// RUN: find %t/elsewhere -type f | count 0
//
// An old copy that is a symlink to a file elsewhere: replaced by the copy,
// the file it pointed to untouched.
// RUN: rm -rf %t/work/out && mkdir -p %t/work/out/src && cp %S/Inputs/b.cpp %t/elsewhere/victim.cpp
// RUN: ln -s %t/elsewhere/victim.cpp %t/work/out/src/a.cpp
// RUN: cd %t/work && %sonde-rewrite --spec %S/Inputs/probes.yaml -o out src/a.cpp -- -std=c++17
// RUN: cmp %S/Inputs/b.cpp %t/elsewhere/victim.cpp
// RUN: test ! -L %t/work/out/src/a.cpp
// RUN: FileCheck %s --check-prefix=COPY --input-file %t/work/out/src/a.cpp
// COPY: int step(int x) { static ::sonde::Site
