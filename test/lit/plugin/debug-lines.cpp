// -g: the plugin keeps every line number. The line table of the plugin's
// object is the rewritten copy's (the same text), and holds every line of
// an uninstrumented build; a closing brace may gain rows of its own, since
// a region's destructor now runs there.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -O0 -g -c %s -o %t/plain.o
// RUN: %cxx -std=c++17 -O0 -g %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/plugin.o
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t/debug-lines.cpp
// RUN: %cxx -std=c++17 -O0 -g -include sonde/sonde.h -I %sonde-include -c %t/debug-lines.cpp -o %t/rewrite.o
// RUN: %dwarf-lines %t/plugin.o debug-lines.cpp > %t/plugin.lines
// RUN: %dwarf-lines %t/rewrite.o debug-lines.cpp > %t/rewrite.lines
// RUN: diff %t/plugin.lines %t/rewrite.lines
// RUN: %dwarf-lines %t/plain.o debug-lines.cpp > %t/plain.lines
// RUN: %python -c "import sys; a=set(open(sys.argv[1]).read().split()); b=set(open(sys.argv[2]).read().split()); sys.exit(0 if a <= b else 'missing lines: %%s' %% sorted(a - b))" %t/plain.lines %t/plugin.lines
// RUN: FileCheck %s --input-file %t/plugin.lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "work"
// SPEC:     category: compute
// SPEC:   - at: "work > #loop_i"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "work > total"

int work(int x) {
  int total = 0;
  for (int i = 0; i < x; ++i) {
    total += i;
  }
  return total;
}
int main() { return work(3) == 3 ? 0 : 1; }

// The statements keep their own lines.
// CHECK: 28 29 30 31 {{.*}}33
