// A file that sonde already instrumented is refused with the reason,
// through both front doors: instrumenting it again would declare every site
// twice under the same stable name (redefinitions, reported as a sonde
// bug). Found on fmt, whose build compiles src/os.cc in two targets, so a
// batch rewrite met it a second time.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.once.cpp
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %t.once.cpp -- -std=c++17 -include sonde/sonde.h -I%sonde-include > %t.twice.cpp 2> %t.err; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
// EXIT: exit 2
// RUN: FileCheck %s --input-file %t.err --check-prefix=REFUSED
// REFUSED: sonde-rewrite: error: '{{.*}}already-instrumented.cpp.tmp.once.cpp' is already instrumented by sonde (line 24 holds its site descriptors): instrument the original source, not an instrumented copy
// RUN: count 0 < %t.twice.cpp
//
// The plugin, given the instrumented copy: the same reason.
// RUN: %if sonde-plugin %{ %not %cxx -std=c++17 -include sonde/sonde.h -I%sonde-include %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %t.once.cpp 2>&1 | FileCheck %s --check-prefix=PLUGIN %}
// PLUGIN: error: sonde: cannot compute the plan: '{{.*}}already-instrumented.cpp.tmp.once.cpp' is already instrumented by sonde (line 24 holds its site descriptors)
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "f"
// SPEC:     category: compute

int f(int x) { return x + 1; }
int main() { return f(1) - 2; }
