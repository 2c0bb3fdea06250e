//===- TorchOpsBench.cpp - Many small ATen ops, for tracing cost ----------===//
//
// The micro-benchmark of bench/torch-profiler.py: OPS calls of `at::add`
// (what `torch::add` calls) on two 16-element float tensors, on one
// thread, so that the run time is mostly the per-op overhead a tracer adds
// to: the dispatcher, RecordFunction and a small kernel. It contains no
// tracing code: sonde's op tracing comes in by SONDE_TORCH_OPS (the
// program links libsonde_torch), libtorch's profiler by LD_PRELOAD of
// bench/ProfilerPreload.cpp, so the plain run is the same binary.
//
//   torch-ops-bench OPS     prints one JSON object: ops, sum,
//                           cpu_before_s, monotonic_before_s
//
// cpu_before_s is the process's CPU time (every thread) just before the
// loop, monotonic_before_s the CLOCK_MONOTONIC time then: the benchmark
// subtracts them from the run's totals, so that loading libtorch, the
// noisiest part of a run on a busy machine, is not in the figure, while
// the loop and everything after it (a tracer's writing of its trace at
// exit) is.
//
//===----------------------------------------------------------------------===//

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

int main(int Argc, char **Argv) {
  long N = Argc == 2 ? std::atol(Argv[1]) : 0;
  if (N <= 0) {
    std::fprintf(stderr, "usage: torch-ops-bench OPS (a positive count)\n");
    return 2;
  }
  at::set_num_threads(1);
  at::Tensor A = at::ones({16});
  at::Tensor B = at::full({16}, 0.5);
  at::Tensor C;
  timespec Before{}, Mono{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &Before);
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  for (long I = 0; I < N; ++I)
    C = at::add(A, B); // a fresh 16-element result each time
  // The last result, so that the loop has an observable effect.
  auto Seconds = [](const timespec &T) {
    return static_cast<double>(T.tv_sec) +
           static_cast<double>(T.tv_nsec) * 1e-9;
  };
  std::printf("{\"ops\": %ld, \"sum\": %.1f, \"cpu_before_s\": %.9f, "
              "\"monotonic_before_s\": %.9f}\n",
              N, C.sum().item<double>(), Seconds(Before), Seconds(Mono));
  return 0;
}
