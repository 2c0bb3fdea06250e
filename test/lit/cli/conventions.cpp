// sonde-rewrite follows the command-line conventions (issue 12 item 9).
//
// --version names sonde's version (and the LLVM it is built with), exit 0.
// RUN: %sonde-rewrite --version | FileCheck %s --check-prefix=VERSION
// VERSION: sonde-rewrite (sonde {{[0-9]+\.[0-9]+\.[0-9]+}}), built with LLVM 19.
//
// --help: exit 0, on the standard output.
// RUN: %sonde-rewrite --help | FileCheck %s --check-prefix=HELP
// HELP: sonde-rewrite: instrument C++ sources from a probe spec
// HELP: --spec=<file>
//
// `-o -` is the standard output, never a directory named '-'.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %sonde-rewrite --spec %S/Inputs/probes.yaml -o - %S/Inputs/a.cpp -- -std=c++17 | FileCheck %s --check-prefix=STDOUT
// STDOUT: int step(int x) { static ::sonde::Site
// RUN: ls -A %t | count 0
// An empty -o names nothing: refused, exit 2.
// RUN: sh -c '%sonde-rewrite --spec %S/Inputs/probes.yaml -o "" %S/Inputs/a.cpp -- -std=c++17 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=EMPTY
// EMPTY: sonde-rewrite: error: -o needs a directory (or '-')
// EMPTY-NEXT: exit 2
//
// A missing source: one plain line naming it, exit 2.
// RUN: cd %t && %not %sonde-rewrite --spec %S/Inputs/probes.yaml nosuch.cpp -- -std=c++17 2> %t.missing
// RUN: FileCheck %s --check-prefix=MISSING --input-file %t.missing --match-full-lines
// MISSING: sonde-rewrite: error: cannot read 'nosuch.cpp': No such file or directory
// MISSING-NOT: {{.}}
//
// An unknown option: the program's name once, then `error:`; exit 2.
// RUN: sh -c '%sonde-rewrite --bogus %S/Inputs/a.cpp 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN-NOT: sonde-rewrite: sonde-rewrite
// UNKNOWN: {{^}}sonde-rewrite: error: Unknown command line argument '--bogus'.
// UNKNOWN-NOT: sonde-rewrite: sonde-rewrite
// UNKNOWN: exit 2
