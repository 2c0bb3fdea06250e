// A range-for in a function template, over a range whose type depends on a
// template parameter (PyTorch's MNIST example trains in `template <typename
// DataLoader> void train(...)` over `for (auto &batch : data_loader)`): the
// range is a named variable or member, an lvalue whatever its type, so it is
// wrapped in sonde::iterate in the template (one text for every
// instantiation) and the fetch (`.iter`) is recorded as in a plain function.
// A dependent range that is not a name (a call, `*p`) may be a prvalue that
// the wrapper would move: it gets `.block` only, and a warning says so.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=SITES
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 2>/dev/null \
// RUN:   | grep call_train | FileCheck %s --check-prefix=CALL
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*train* > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "with_args > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:     name: guarded
// SPEC:     args: {n: n}

#include <vector>

template <typename DataLoader> int train(DataLoader &data_loader) {
  int sum = 0;
  for (auto &batch : data_loader)
    sum += batch;
  // CHECK: {{^}}  for (auto &batch : ::sonde::iterate(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], data_loader)){{$}}
  return sum;
}

template <class Loader> struct Trainer {
  Loader loader;
  int member_train() {
    int sum = 0;
    for (const auto &batch : this->loader)
      sum += batch;
    // CHECK: {{^}}    for (const auto &batch : ::sonde::iterate(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], this->loader)){{$}}
    return sum;
  }
};

template <class Loader> int with_args(const Loader &loader) {
  int n = 0;
  for (auto batch : loader)
    n += batch;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[G:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (auto batch : ::sonde::iterateFetch(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], loader)){{$}}
  // CHECK-NEXT: {{^}}    { ::sonde::CondIteration sonde_iter_[[G]](true, sonde_loop_[[G]], (n)); n += batch; } }
  return n;
}

template <class Make> int call_train(Make make) {
  int sum = 0;
  for (auto batch : make())
    sum += batch;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[C:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (auto batch : make()){{$}}
  // CHECK-NEXT: {{^}}    { ::sonde::Iteration sonde_iter_[[C]](sonde_loop_[[C]]); sum += batch; } }
  return sum;
}
// DIAG: template-range-for.cpp:[[@LINE-6]]:3: warning: probe '*train* > #loop_batch': the range's type depends on a template parameter and it is not a named variable; 'fetch.iter' (the fetch) is not recorded, only 'fetch.block' [sonde-unsupported]
// DIAG-NOT: warning:

int instantiate() {
  std::vector<int> v{1, 2};
  int a[2] = {3, 4};
  Trainer<std::vector<int>> t{v};
  return train(v) + train(a) + t.member_train() + with_args(v) +
         call_train([&] { return v; });
}

// SITES-DAG: loop dataloader.fetch fetch.iter {{.*}}template-range-for.cpp:31 train #loop_batch
// SITES-DAG: loop dataloader.fetch fetch.block {{.*}}template-range-for.cpp:31 train #loop_batch
// SITES-DAG: loop dataloader.fetch fetch.iter {{.*}}template-range-for.cpp:41 Trainer::member_train #loop_batch
// SITES-DAG: loop dataloader.fetch fetch.block {{.*}}template-range-for.cpp:41 Trainer::member_train #loop_batch
// SITES-DAG: loop dataloader.fetch guarded.iter {{.*}}template-range-for.cpp:50 with_args #loop_batch
// SITES-DAG: loop dataloader.fetch guarded.block {{.*}}template-range-for.cpp:50 with_args #loop_batch
// CALL-NOT: fetch.iter
// CALL: loop dataloader.fetch fetch.block {{.*}}template-range-for.cpp:59 call_train #loop_batch
// CALL-NOT: fetch.iter
