// Precompiled headers: the PCH replaces the predefines, so the plugin also
// lists the runtime header in PreprocessorOptions::Includes. Instrumented
// with -include-pch, whether the PCH was built with the plugin flags (as
// CMake's target_precompile_headers does) or without.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -x c++-header %S/Inputs/pch.h -o %t/plain.pch
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -x c++-header %S/Inputs/pch.h -o %t/flags.pch
// RUN: %cxx -std=c++17 -Wall -Werror -include-pch %t/plain.pch %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml %s -o %t/a %sonde-link
// RUN: %cxx -std=c++17 -Wall -Werror -include-pch %t/flags.pch %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml %s -o %t/b %sonde-link
// RUN: env SONDE_OUTPUT=%t/ta %t/a && %sonde-trace export %t/ta --format jsonl | %records | FileCheck %s
// RUN: env SONDE_OUTPUT=%t/tb %t/b && %sonde-trace export %t/tb --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "sum"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "sum > total"

int sum(const std::vector<int> &V) {
  // CHECK: region compute/sum level=0 line=[[@LINE-1]] func=sum
  int total = 0;
  // CHECK-NEXT: watch user/total value=0 line=[[@LINE-1]]
  for (int X : V)
    total += X;
  // CHECK-NEXT: watch user/total value=1 line=[[@LINE-1]]
  // CHECK-NEXT: watch user/total value=3 line=[[@LINE-2]]
  return total;
}

int main() {
  std::printf("%d\n", sum({1, 2}));
  return 0;
}
