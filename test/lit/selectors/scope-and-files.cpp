// `scope:` rules (the last match wins) and `/FILEGLOB/FUNC` restrict which
// definitions are instrumented.
//
// RUN: %instrument
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
// RUN: FileCheck %s --input-file %t.err --check-prefix=WARN
//
// SPEC: version: 1
// SPEC: scope:
// SPEC:   - exclude: {function: "detail::*"}
// SPEC:   - include: {function: "detail::keep"}
// SPEC:   - exclude: {file: "*/other/*"}
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "/scope-and-*.cpp/visible"
// SPEC:     category: user.glob
// SPEC:   - at: "/elsewhere.cpp/visible"
// SPEC:     category: user.never

namespace detail {
int hidden() { return 1; }
int keep() { return 2; }
} // namespace detail
int visible() { return detail::hidden() + detail::keep(); }

// SITES-DAG: region compute keep {{.*}}scope-and-files.cpp:24 detail::keep
// SITES-DAG: region compute visible {{.*}}:26 visible
// SITES-DAG: region user.glob glob {{.*}}:26 visible
// SITES-NOT: hidden
// WARN: warning: selector '/elsewhere.cpp/visible' matches nothing
