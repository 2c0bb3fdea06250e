// -fcoverage-mapping and -Wall -Wextra -Werror: the inserted code adds no
// warning, and the coverage mapping is built on the instrumented text.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -Wall -Wextra -Wshadow -Werror -fprofile-instr-generate -fcoverage-mapping %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/cov.o
// RUN: /usr/lib/llvm-19/bin/llvm-readelf -S %t/cov.o | FileCheck %s --check-prefix=COV
// RUN: /usr/lib/llvm-19/bin/llvm-nm -C %t/cov.o | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step"
// SPEC:     category: compute.step
// SPEC:     args: {n: n}
// SPEC:   - at: "step > #loop_i"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "step > acc"
// SPEC:     every: 2

int step(int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i)
    acc += i;
  return acc;
}

// COV: __llvm_covmap
// SITES: step(int)::sonde_sites_
