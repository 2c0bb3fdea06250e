// sonde-rewrite reads the code; the compiler that builds the result
// enforces the build's warning policy. With g++'s flags from fmt's build
// (-pedantic-errors -Werror), clang rejects a call of a system header's
// variadic macro with no argument for `...` (a C++20 extension), which g++
// lets pass because the macro is a system header's: found on fmt 9.1.0's
// core-test.cc and xchar-test.cc (gtest's EXPECT_NONFATAL_FAILURE).
// -Werror, -Werror=X and -pedantic-errors are dropped from sonde-rewrite's
// own parses.
//
// RUN: %spec
// RUN: %sonde-rewrite --verify --spec %t.yaml %s -- -std=c++17 -isystem %S/Inputs/system -pedantic -pedantic-errors -Werror -Werror=format-security > %t.cpp
// RUN: FileCheck %s --input-file %t.cpp
// CHECK: {{^}}int f(int x) { {{.*}}::sonde::InsertedRegion
//
// The result still builds under the same policy with g++.
// RUN: %syntax-gcc -isystem %S/Inputs/system -pedantic -pedantic-errors -Werror %t.cpp
// And without the fix, clang's parse fails:
// RUN: %not %cxx -std=c++17 -isystem %S/Inputs/system -pedantic-errors -fsyntax-only %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute

#include <variadic.h>

int g() { return 1; }
int f(int x) { return x + CALL(g); }
