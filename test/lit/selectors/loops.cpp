// Loop probes: #loop_X (the loop over X), #loop (every loop), #loop@LINE;
// per-iteration regions named <name>.block, and for a range-for also
// <name>.iter (the fetch) through sonde::iterate.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:   - at: "train_epoch > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "drain > #loop"
// SPEC:     category: user.drain
// SPEC:   - at: "drain > #loop@57"
// SPEC:     category: user.line
// SPEC:   - at: "poll > #loop_item"
// SPEC:     category: data.item
// SPEC: watches:
// SPEC:   - at: "train_epoch > #endloop_batch as step"

#include <vector>

std::vector<int> loader() { return {1, 2, 3}; }

int train_epoch(const std::vector<int> &data) {
  int sum = 0;
  for (const int &batch : data) {
    // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[W:[0-9a-f]+]](sonde_sites_[[T:[0-9a-f]+]][{{[0-9]+}}]); for (const int &batch : ::sonde::iterate(sonde_sites_[[T]][{{[0-9]+}}], sonde_sites_[[T]][{{[0-9]+}}], data)) { const ::std::uint64_t sonde_i_[[W]] = sonde_loop_[[W]].Next++;
    if (batch == 2)
      continue;
    // CHECK: {{^}}      { ::sonde::watchUIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, sonde_i_[[W]]); continue; }
    sum += batch;
  }
  // CHECK: {{^}}  ::sonde::watchUIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, sonde_i_[[W]]);} }
  // Range-for over a temporary: made in place by a lambda (it was moved).
  for (int batch : loader())
    sum += batch;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[W2:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int batch : ::sonde::iterateMade(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return loader(); }))
  return sum;
}

void train(int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[E:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int epoch = 0; epoch < epochs; ++epoch) { ::sonde::Iteration sonde_iter_[[E]](sonde_loop_[[E]]);
    train_epoch({1, 2});
  }
  // CHECK: {{^}}  } }
}

int drain(int n) {
  while (n > 10) n /= 2;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[D:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); while (n > 10) { ::sonde::Iteration sonde_iter_[[D]](sonde_loop_[[D]]); n /= 2; } }
  do { --n; } while (n > 0);
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_{{.*}} { ::sonde::Loop sonde_loop_{{.*}} do { ::sonde::Iteration sonde_iter_{{[0-9a-f]+}}(sonde_loop_{{[0-9a-f]+}}); ::sonde::Iteration {{.*}} --n; } while (n > 0); } }
  return n;
}

// SITES-DAG: loop dataloader.fetch fetch.iter {{.*}}loops.cpp:31 train_epoch #loop_batch
// SITES-DAG: loop dataloader.fetch fetch.block {{.*}}loops.cpp:31 train_epoch #loop_batch
// SITES-DAG: watch user step {{.*}}loops.cpp:31 train_epoch #endloop_batch :uint64_t
// SITES-DAG: loop dataloader.fetch fetch.iter {{.*}}loops.cpp:40 train_epoch #loop_batch
// SITES-DAG: loop pipeline.epoch epoch.block {{.*}}loops.cpp:47 train #loop_epoch
// SITES-DAG: loop user.drain drain.block {{.*}}loops.cpp:55 drain #loop
// SITES-DAG: loop user.drain drain.block {{.*}}loops.cpp:57 drain #loop
// SITES-DAG: loop user.line line.block {{.*}}loops.cpp:57 drain #loop@57

// A while loop whose condition declares X is the loop over X.
int next(int &n) { return n > 0 ? n-- : 0; }
int poll(int n) {
  int sum = 0;
  while (int item = next(n))
    sum += item;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[P:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); while (int item = next(n))
  // CHECK-NEXT: {{^}}    { ::sonde::Iteration sonde_iter_[[P]](sonde_loop_[[P]]); sum += item; } }
  return sum;
}
