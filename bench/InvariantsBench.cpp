//===- InvariantsBench.cpp - The checking of `sonde check`, alone ---------===//
//
//   invariants-bench INVARIANTS.yaml ROUNDS TRACE...
//
// ROUNDS times, side by side: reads the traces as `sonde check` does (each
// opened as a stream, its events taken one by one), once without and once
// with a Checker (runtime/trace/invariants) fed every event. Prints one
// JSON object: the records, the median CPU seconds of each, and what the
// checking alone costs (the difference): what `sonde check` costs beyond
// reading the files. Each event is checked just after it was decoded, as
// in `sonde check`, so the checks see values in cache as they would there.
// bench/invariants.py runs this and reports it with the end-to-end figures.
//
//===----------------------------------------------------------------------===//

#include "invariants/Invariants.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace sonde::trace;

namespace {

double cpuSeconds() {
  timespec Ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &Ts);
  return static_cast<double>(Ts.tv_sec) + static_cast<double>(Ts.tv_nsec) / 1e9;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 4) {
    std::fputs("usage: invariants-bench INVARIANTS.yaml ROUNDS TRACE...\n",
               stderr);
    return 2;
  }
  std::vector<inv::Invariant> Invs;
  std::string Error;
  if (!inv::readInvariants(Argv[1], Invs, Error)) {
    std::fprintf(stderr, "invariants-bench: %s\n", Error.c_str());
    return 2;
  }
  int Rounds = std::max(1, std::atoi(Argv[2]));
  std::vector<std::string> Files(Argv + 3, Argv + Argc);
  // One pass over every trace; with C, every event checked.
  auto Pass = [&](inv::Checker *C, uint64_t &Records) {
    Records = 0;
    for (const std::string &F : Files) {
      Trace T;
      if (!inv::openTraceWhole(F, T, Error)) { // as sonde check reads
        std::fprintf(stderr, "invariants-bench: %s\n", Error.c_str());
        std::exit(2);
      }
      for (const Event &E : events(T)) {
        ++Records;
        if (C)
          C->observe(T, E);
      }
      if (C)
        C->endTrace();
    }
  };
  std::vector<double> Read, Check, Only;
  uint64_t Records = 0;
  size_t Violated = 0;
  for (int R = 0; R < Rounds; ++R) {
    double T0 = cpuSeconds();
    Pass(nullptr, Records);
    double T1 = cpuSeconds();
    inv::Checker C(Invs);
    Pass(&C, Records);
    Violated = C.finish().Violations.size();
    double T2 = cpuSeconds();
    Read.push_back(T1 - T0);
    Check.push_back(T2 - T1);
    Only.push_back((T2 - T1) - (T1 - T0));
  }
  auto Median = [](std::vector<double> V) {
    std::sort(V.begin(), V.end());
    return V[V.size() / 2];
  };
  double N = static_cast<double>(Records);
  std::printf("{\"records\": %llu, \"invariants\": %zu, \"violated\": %zu, "
              "\"read_cpu_s\": %.6f, \"check_cpu_s\": %.6f, "
              "\"read_mrec_s\": %.3f, \"check_mrec_s\": %.3f, "
              "\"check_only_mrec_s\": %.3f}\n",
              static_cast<unsigned long long>(Records), Invs.size(), Violated,
              Median(Read), Median(Check), N / Median(Read) / 1e6,
              N / Median(Check) / 1e6, N / Median(Only) / 1e6);
  return 0;
}
