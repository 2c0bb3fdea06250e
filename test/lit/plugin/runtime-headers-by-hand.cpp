// The two documented flags are all a hand-written compile needs, even when
// the plan asks for more runtime headers than sonde/sonde.h: a watch of a
// std::vector makes the plugin include sonde/containers.h by its path, and
// that header finds sonde/sonde.h beside itself, with no -I on the line.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/a.o
// RUN: %cxx %t/a.o -o %t/prog %sonde-link
// RUN: env SONDE_OUTPUT=%t/trace %t/prog && %sonde-trace export %t/trace --format jsonl | FileCheck %s
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "main > weights"

#include <vector>

int main() {
  std::vector<double> weights = {0.5, 1.5, 2.5};
  // CHECK: "name":"weights"{{.*}}"value":{"shape":[3],"numel":3,"min":0.5,"max":2.5,"mean":1.5
  return weights.size() == 3 ? 0 : 1;
}
