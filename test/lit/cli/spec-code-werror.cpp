// Spec code that does not compile, in a build with -Wall -Werror: only the
// spec's located error is printed. The check compiles without warnings (the
// source's own were shown by the first parse), so no warning poses as an
// error, and no "N errors generated." or "Error while processing" line.
//
// RUN: %spec
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %s -- -std=c++17 -Wall -Wextra -Werror > /dev/null 2> %t.err; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=generated --implicit-check-not=processing --implicit-check-not=error:
// EXIT: exit 1
// CHECK: spec-code-werror.cpp.tmp.yaml:5:12: error: use of undeclared identifier 'nonexistent'
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step"
// SPEC:     category: compute
// SPEC:     when: "nonexistent > 0"

int step(int x) {
  int y = x + 1;
  return y;
}
