// A value whose type depends on a template parameter (a local of a function
// template, as `train(const Batch &)` over a tensor or a container) may be a
// tensor or a container in an instantiation: the plan asks for the headers
// that record them (sonde/containers.h, and sonde/torch.h when the file
// declares at::Tensor), so the plugin records the value instead of nothing.
//
// RUN: %instrument
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
// REQUIRES: sonde-plugin
// RUN: %build-plugin -fplugin-arg-sonde-spec=%t.yaml %s -o %t.plugin %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.plugin
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > values"

#include <vector>

template <typename T> void train(const T &B) {
  auto values = std::vector<T>(3, B);
  (void)values;
}

int main() { train(1.5); }

// SITES: # headers: sonde/sonde.h sonde/containers.h
// CHECK: watch user/values value={{.*}}"mean": 1.5{{.*}}"numel": 3, "shape": [3]{{.*}} line=22 func=train
