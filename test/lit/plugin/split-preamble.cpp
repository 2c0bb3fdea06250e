// A split compile (the default): the real compile forks once the #include
// lines at the top are parsed; the child plans the original rest of the
// file, the parent compiles the instrumented rest. The rest sees what it
// would see unsplit (its lines, __FILE__, __INCLUDE_LEVEL__, quoted
// includes next to the file), the plan is the nested parse's, and the
// dependency file names the source once.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/split.sites -MD -MF %t/split.d -c %s -o %t/split.o
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-nested-parse -fplugin-arg-sonde-list-sites=%t/nested.sites -c %s -o %t/nested.o
// RUN: diff %t/split.sites %t/nested.sites
// RUN: FileCheck %s --check-prefix=SITES --input-file %t/split.sites
// RUN: FileCheck %s --check-prefix=DEPS --input-file %t/split.d
// RUN: %cxx %t/split.o -o %t/prog %sonde-link
// RUN: env SONDE_OUTPUT=%t/trace %t/prog | FileCheck %s --check-prefix=OUT
// RUN: %sonde-trace export %t/trace --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main"
// SPEC:     category: pipeline
// SPEC:   - at: "sum"
// SPEC:     category: compute
// SPEC:   - at: "late"
// SPEC:     category: compute

#include <cstdio>
#include <vector>

constexpr bool endsWith(const char *S, const char *Suffix) {
  const char *E = S, *F = Suffix;
  while (*E)
    ++E;
  while (*F)
    ++F;
  for (; F != Suffix; --E, --F)
    if (E == S || E[-1] != F[-1])
      return false;
  return true;
}
static_assert(endsWith(__FILE__, "split-preamble.cpp"), "__FILE__");
static_assert(__INCLUDE_LEVEL__ == 0, "the rest is the main file");

int sum(const std::vector<int> &V) {
  int S = 0;
  for (int X : V)
    S += X;
  return S;
}

#include "Inputs/split-late.h"

int main() {
  std::printf("%d %s\n", __LINE__, __FILE__);
  return sum({1, 2, 3}) == 6 && late() == 7 ? 0 : 1;
}

// SITES: region compute sum {{.*}}split-preamble.cpp:44 sum
// SITES-NEXT: region pipeline main {{.*}}split-preamble.cpp:53 main
// SITES-NOT: late
// OUT: 54 {{.*}}split-preamble.cpp
// CHECK: region pipeline/main level=0 line=53 func=main
// CHECK-NEXT: region compute/sum level=1 line=44 func=sum
// DEPS: split.o:
// DEPS-NEXT: {{.*}}split-preamble.cpp \
// DEPS-NOT: {{split-preamble.cpp( |$)}}
// DEPS: sonde/sonde.h
// DEPS-NOT: {{split-preamble.cpp( |$)}}
