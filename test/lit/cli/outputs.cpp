// The ways sonde-rewrite writes: stdout, -o DIR (relative paths kept),
// --in-place (atomic), --diff; -p BUILD_DIR with -j and progress on stderr.
//
// RUN: rm -rf %t && mkdir -p %t/src %t/out && cp %S/Inputs/a.cpp %S/Inputs/b.cpp %t/src/
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml src/a.cpp -- -std=c++17 > stdout.cpp
// RUN: FileCheck %s --check-prefix=STDOUT --input-file %t/stdout.cpp
// STDOUT: int step(int x) { static ::sonde::SiteTable sonde_sites_[[T:[0-9a-f]+]]("{{[0-9]+}}\n1\nsrc/a.cpp\nstep\n1\n0\n1\n{{[0-9a-f]+}}\ncompute.step\nstep\n\n\n"); ::sonde::InsertedRegion sonde_region_[[T]](sonde_sites_[[T]], 0); return x + 1; }
//
// -o keeps the relative path under DIR.
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml -o out src/a.cpp src/b.cpp -- -std=c++17 2> progress.txt
// RUN: diff %t/stdout.cpp %t/out/src/a.cpp
// RUN: FileCheck %s --check-prefix=PROGRESS --input-file %t/progress.txt
// PROGRESS-DAG: [{{[12]}}/2] src/a.cpp
// PROGRESS-DAG: [{{[12]}}/2] src/b.cpp
//
// From '/', DIR holds the file's whole path.
// RUN: rm -rf %t/root-out && cd / && %sonde-rewrite --spec %S/Inputs/probes.yaml -o %t/root-out %t/src/a.cpp -- -std=c++17
// RUN: test -f %t/root-out%t/src/a.cpp
//
// --diff prints a unified diff and writes nothing.
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml --diff src/b.cpp -- -std=c++17 | FileCheck %s --check-prefix=DIFF
// DIFF:      --- src/b.cpp
// DIFF-NEXT: +++ src/b.cpp
// DIFF-NEXT: @@ -1,2 +1,2 @@
// DIFF-NEXT: -int step2(int x) { return step2(x - 1); }
// DIFF-NEXT: +int step2(int x) { static ::sonde::Site
// RUN: diff %S/Inputs/b.cpp %t/src/b.cpp
//
// --in-place replaces the file with what -o wrote.
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/a.cpp -- -std=c++17
// RUN: diff %t/out/src/a.cpp %t/src/a.cpp
//
// -p reads compile_commands.json; -j 2 runs both files at once.
// RUN: echo '[{"directory": "%t", "file": "src/a.cpp", "command": "clang++ -std=c++17 -c src/a.cpp"}, {"directory": "%t", "file": "src/b.cpp", "command": "clang++ -std=c++17 -c src/b.cpp"}]' > %t/compile_commands.json
// RUN: cp %S/Inputs/a.cpp %t/src/a.cpp
// RUN: cd %t && %sonde-rewrite --spec %S/Inputs/probes.yaml -p %t -j 2 --list-sites src/a.cpp src/b.cpp 2>/dev/null | FileCheck %s --check-prefix=SITES
// SITES-DAG: region compute.step step src/a.cpp:1 step
// SITES-DAG: region compute.step step src/b.cpp:1 step2
//
// --in-place refuses a file that changed since it was read: here the same
// file twice, so the second result finds the first one's output.
// RUN: cp %S/Inputs/a.cpp %t/src/a.cpp
// RUN: cd %t && %not %sonde-rewrite --spec %S/Inputs/probes.yaml --in-place src/a.cpp src/a.cpp -- -std=c++17 2> %t/refused.txt
// RUN: FileCheck %s --check-prefix=REFUSED --input-file %t/refused.txt
// REFUSED: error: 'src/a.cpp' changed since it was read; not replaced
// RUN: diff %t/out/src/a.cpp %t/src/a.cpp
