// Inserted code needs C++17. A file compiled as C++11 that gets probes is
// refused by the engine with the reason, through both front doors, instead
// of a rewrite whose errors come from inside sonde.h (found on jsoncpp,
// which sets CMAKE_CXX_STANDARD 11). A C++11 file without probes is left
// alone, and sonde.h itself says what it needs.
//
// RUN: %spec
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %s -- -std=c++11 > %t.cpp 2> %t.err; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
// EXIT: exit 2
// RUN: FileCheck %s --input-file %t.err --check-prefix=REFUSED
// REFUSED: sonde-rewrite: error: instrumented code needs C++17 or later, and '{{.*}}cxx11.cpp' is compiled as c++11: compile it with -std=c++17
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %s -- -std=c++17 > /dev/null; echo "exit $?"' | FileCheck %s --check-prefix=OK
// OK: exit 0
//
// No probe matches: the C++11 file goes through unchanged.
// RUN: printf 'version: 1\nprobes:\n  - at: "nothing"\n' > %t.none.yaml
// RUN: %sonde-rewrite --quiet-unmatched --spec %t.none.yaml %s -- -std=c++11 > %t.none.cpp
// RUN: diff %s %t.none.cpp
//
// sonde.h under C++11: one clear error first.
// RUN: %not %cxx -std=c++11 -include sonde/sonde.h -I%sonde-include -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: error: "sonde: instrumented code needs C++17 or later (-std=c++17)"
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute

int f(int x) { return x + 1; }
int main() { return f(1) - 2; }
