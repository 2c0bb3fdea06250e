// -save-temps: the driver preprocesses to a .ii and compiles that. The
// plugin instruments the .ii's own code (by its line markers; the inlined
// headers are left alone) with the same plan as the source, and since a
// .ii can take no #include, it asks for the runtime header on the command
// line, where the preprocessing step puts it into the .ii.
//
// RUN: rm -rf %t && mkdir -p %t && %spec && cd %t
// RUN: %not %cxx -std=c++17 -save-temps %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/a.o 2>&1 | FileCheck %s --check-prefix=NOHEADER
// NOHEADER: error: sonde: this preprocessed input (-save-temps, or a .ii file) does not contain the runtime header; add '-include {{.*}}sonde/sonde.h' to the compile flags
//
// RUN: %cxx -std=c++17 -save-temps -include %sonde-include/sonde/sonde.h %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/plugin.sites %s -o %t/prog %sonde-link
// RUN: ls %t | FileCheck %s --check-prefix=TEMPS
// TEMPS: save-temps.ii
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 > %t/rewrite.sites
// RUN: diff %t/plugin.sites %t/rewrite.sites
// RUN: env SONDE_OUTPUT=%t/trace %t/prog && %sonde-trace export %t/trace --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*::size"
// SPEC:   - at: "main"
// SPEC:     category: pipeline.train

#include <vector>

int main() {
  // CHECK: region pipeline/train level=0 line=[[@LINE-1]] func=main
  std::vector<int> V(3);
  return V.size() == 3 ? 0 : 1;
}
// CHECK-NOT: size
