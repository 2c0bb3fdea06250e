// -g: the code sonde inserts has no debug info of its own. Its inline
// helpers are `nodebug` under clang, so the line table gives no row to a
// sonde header (a debugger steps over the inserted code, staying on the
// user's line) and the compiler carries none of their scopes and variables
// through its passes (docs/plugin.md, "Cost"). The user's lines are all
// there: debug-lines.cpp.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -O0 -g %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/o0.o
// RUN: %dwarf-lines %t/o0.o --files | FileCheck %s --implicit-check-not=include/sonde
// RUN: %cxx -std=c++17 -O2 -g %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/o2.o
// RUN: %dwarf-lines %t/o2.o --files | FileCheck %s --implicit-check-not=include/sonde
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "work"
// SPEC:     category: compute
// SPEC:   - at: "work > #loop_i"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "work > total"
// SPEC:   - at: "work > parts"
// SPEC: apis:
// SPEC:   - call: "add"

#include <vector>

int add(int a, int b) { return a + b; }

int work(int x) {
  int total = 0;
  std::vector<int> parts;
  for (int i = 0; i < x; ++i) {
    total = add(total, i);
    parts.push_back(total);
  }
  return total;
}
int main() { return work(3) == 3 ? 0 : 1; }

// CHECK: nodebug.cpp: {{[1-9]}}
