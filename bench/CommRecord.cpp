//===- CommRecord.cpp - What libsonde_torch's comm record costs -----------===//
//
// `torch.comm_record_ns`: the time libsonde_torch's callback adds to one
// collective, on the thread that runs it (Gloo's worker): a USER_SCOPE
// RecordFunction named `gloo:all_reduce` with one float tensor as input,
// as ProcessGroupGloo opens around each all-reduce, timed with sonde's
// callback installed and then, in the same process, with every global
// callback removed (at::clearGlobalCallbacks; it cannot be put back, so
// the 7 repetitions of each run one set after the other), medians; the
// difference per record is the figure.
// The records go to a real trace (SONDE_OUTPUT), drained by libsonde's
// writer thread, whose own time is not on the caller's.
//
//   comm-record-bench [RECORDS]   prints one JSON object
//
//===----------------------------------------------------------------------===//

#include <ATen/ATen.h>
#include <ATen/record_function.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

/// ns per collective record over `N` records.
double perRecord(const at::Tensor &T, long N) {
  std::vector<c10::IValue> In{T};
  auto T0 = std::chrono::steady_clock::now();
  for (long I = 0; I < N; ++I) {
    at::RecordFunction Guard(at::RecordScope::USER_SCOPE);
    if (Guard.isActive())
      Guard.before("gloo:all_reduce",
                   c10::ArrayRef<const c10::IValue>(In.data(), In.size()));
  }
  auto T1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(T1 - T0).count() /
         static_cast<double>(N);
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? std::atol(Argv[1]) : 200000;
  if (N <= 0) {
    std::fprintf(stderr, "comm-record-bench: RECORDS must be positive\n");
    return 2;
  }
  at::Tensor T = at::ones({16000}); // the example's largest bucket
  // With sonde's callback (installed when libsonde_torch loaded); warm.
  perRecord(T, N / 10);
  std::vector<double> With, Without;
  for (int Rep = 0; Rep < 7; ++Rep)
    With.push_back(perRecord(T, N));
  at::clearGlobalCallbacks();
  perRecord(T, N / 10);
  for (int Rep = 0; Rep < 7; ++Rep)
    Without.push_back(perRecord(T, N));
  double W = median(With), O = median(Without);
  std::printf("{\"torch.comm_record_ns\": %.1f, \"torch.comm_record_base_ns\": "
              "%.1f}\n",
              W - O, O);
  return 0;
}
