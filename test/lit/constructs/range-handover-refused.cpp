// A range-for over a temporary of a class with its own copy, move or
// destructor gets its range made inside sonde::iterate by a lambda
// (selectors/loops.cpp). Where the lambda would change the range, the
// fetch is not recorded and a warning says why: a temporary made from a
// structured binding, and in C++23 a range with temporaries of its own,
// which live as long as the loop there.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++2b 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=CXX23
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "from_binding > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "from_temporary > #loop_batch"
// SPEC:     category: dataloader.fetch

#include <string>
#include <utility>
#include <vector>

std::vector<int> loader(int n) { return std::vector<int>(n, 1); }

int from_binding(std::pair<int, int> p) {
  auto [n, m] = p;
  int sum = 0;
  for (int batch : loader(n))
    sum += batch;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_{{[0-9a-f]+}}(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int batch : loader(n))
  return sum + m;
}
// DIAG: range-handover-refused.cpp:[[@LINE-5]]:3: warning: probe 'from_binding > #loop_batch': the range is a temporary made from a structured binding, __func__ or a parameter pack, which sonde::iterate could only move in; 'fetch.iter' (the fetch) is not recorded, only 'fetch.block' [sonde-copy]

std::vector<int> lines(const std::string &s) {
  return std::vector<int>(s.size(), 1);
}

int from_temporary() {
  int sum = 0;
  for (int batch : lines(std::string("abc")))
    sum += batch;
  // CHECK: ::sonde::iterateMade(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return lines(std::string("abc")); })
  return sum;
}
// DIAG-NOT: from_temporary
// CXX23: warning: probe 'from_binding > #loop_batch': the range is a temporary made from a structured binding
// CXX23: range-handover-refused.cpp:[[@LINE-7]]:3: warning: probe 'from_temporary > #loop_batch': in C++23 the temporaries inside the range live as long as the loop, which making the range inside sonde::iterate would end; 'fetch.iter' (the fetch) is not recorded, only 'fetch.block' [sonde-copy]
