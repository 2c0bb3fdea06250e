// Build systems run sonde-rewrite once per source (CMake rewrite mode), where
// a selector that matches nothing in one file is normal. --quiet-unmatched
// drops that warning; --strict still makes it an error.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %S/Inputs/a.cpp -- -std=c++17 > %t.loud.cpp 2> %t.loud
// RUN: FileCheck %s --input-file %t.loud --check-prefix=LOUD
// LOUD: warning: selector 'nothing_matches' matches nothing
//
// RUN: %sonde-rewrite --quiet-unmatched --spec %t.yaml %S/Inputs/a.cpp -- -std=c++17 > %t.quiet.cpp 2> %t.quiet
// RUN: FileCheck %s --input-file %t.quiet --allow-empty --check-prefix=QUIET
// QUIET-NOT: matches nothing
// The output is the same either way.
// RUN: diff %t.loud.cpp %t.quiet.cpp
//
// RUN: sh -c '%sonde-rewrite --quiet-unmatched --strict --spec %t.yaml %S/Inputs/a.cpp -- -std=c++17 > /dev/null 2> %t.strict; echo "exit $?"' | FileCheck %s --check-prefix=STRICT
// RUN: FileCheck %s --input-file %t.strict --check-prefix=STRICTMSG
// STRICT: exit 1
// STRICTMSG: error: selector 'nothing_matches' matches nothing
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step"
// SPEC:     category: compute
// SPEC:   - at: "nothing_matches"
// SPEC:     category: compute
