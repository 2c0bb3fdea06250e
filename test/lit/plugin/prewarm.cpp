// With a PCH, a split compile loads before its fork the specializations of
// the class and function templates of the namespaces the file names, so
// that the two processes share them (SplitCompile.cpp, prewarm()). It only
// moves loads earlier: the object is byte for byte the one compiled with
// `no-prewarm`, and the program records the same.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
// RUN: %cxx -std=c++17 -O1 -g -x c++-header %S/Inputs/prewarm-pch.h -o %t/std.pch
// RUN: %cxx -std=c++17 -O1 -g -include-pch %t/std.pch %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -c %s -o %t/prewarm.o
// RUN: %cxx -std=c++17 -O1 -g -include-pch %t/std.pch %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-no-prewarm -c %s -o %t/no-prewarm.o
// RUN: cmp %t/prewarm.o %t/no-prewarm.o
// RUN: %cxx %t/prewarm.o -o %t/a %sonde-link
// RUN: env SONDE_OUTPUT=%t/trace %t/a | FileCheck %s --check-prefix=OUT
// RUN: %sonde-trace export %t/trace --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "tally"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "tally > most"

// The names the prewarm follows: std:: (and its templates: make_shared,
// max_element, the map's and the string's).
int tally(const std::vector<std::string> &Words) {
  // CHECK: region compute/tally level=0 line=[[@LINE-1]] func=tally
  auto Counts = std::make_shared<std::map<std::string, int>>();
  for (const std::string &W : Words)
    ++(*Counts)[W];
  int most = std::max_element(Counts->begin(), Counts->end(),
                              [](const auto &A, const auto &B) {
                                return A.second < B.second;
                              })->second;
  // CHECK-NEXT: watch user/most value=2 line=[[@LINE-4]]
  return most;
}

int main() {
  // OUT: 2
  std::printf("%d\n", tally({"a", "b", "a"}));
  return 0;
}
