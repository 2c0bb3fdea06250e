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
//   torch-ops-bench OPS     prints {"ops": OPS, "sum": ...}
//
//===----------------------------------------------------------------------===//

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <cstdlib>

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
  for (long I = 0; I < N; ++I)
    C = at::add(A, B); // a fresh 16-element result each time
  // The last result, so that the loop has an observable effect.
  std::printf("{\"ops\": %ld, \"sum\": %.1f}\n", N, C.sum().item<double>());
  return 0;
}
