// Exit status: 0 done; 1 errors in the spec or its selectors; 2 usage or
// source errors. A selector that matches nothing is a warning (an error
// under --strict, exit 1).
//
// RUN: %spec
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %S/Inputs/a.cpp -- -std=c++17 > /dev/null 2> %t.ok; echo "exit $?"' | FileCheck %s --check-prefix=OK
// OK: exit 0
// RUN: FileCheck %s --input-file %t.ok --check-prefix=NOTHING
// NOTHING: exit-codes.cpp.tmp.yaml:5:10: warning: selector 'nothing_matches' matches nothing
// NOTHING-NEXT: - at: "nothing_matches"
// NOTHING-NEXT: {{^}}         ^~~~~~~~~~~~~~~
//
// RUN: sh -c '%sonde-rewrite --strict --spec %t.yaml %S/Inputs/a.cpp -- -std=c++17 > /dev/null 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=STRICT
// STRICT: exit 1
//
// A spec error: exit 1, located.
// RUN: printf 'version: 1\nprobes:\n  - at: "f >> x"\n' > %t.bad.yaml
// RUN: sh -c '%sonde-rewrite --spec %t.bad.yaml %S/Inputs/a.cpp -- -std=c++17 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=SPECERR
// SPECERR: exit-codes.cpp.tmp.bad.yaml:3:12: error: '>>' (immediate caller) is not supported; use '>', which matches at any depth of calls
// SPECERR: exit 1
//
// A source error: the compiler's message, exit 2, nothing instrumented.
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %S/Inputs/broken.cpp -- -std=c++17 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=SOURCE
// SOURCE: broken.cpp:1:{{[0-9]+}}: error:
// SOURCE: exit 2
//
// Usage errors: exit 2.
// RUN: sh -c '%sonde-rewrite %S/Inputs/a.cpp -- -std=c++17 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=USAGE
// USAGE: error: --spec probes.yaml is required
// USAGE: exit 2
// RUN: sh -c '%sonde-rewrite --spec %t.yaml --diff --in-place %S/Inputs/a.cpp -- -std=c++17 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=USAGE2
// USAGE2: error: choose one of -o, --in-place and --diff
// USAGE2: exit 2
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step"
// SPEC:     category: compute
// SPEC:   - at: "nothing_matches"
