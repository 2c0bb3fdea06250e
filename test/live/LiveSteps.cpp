//===- LiveSteps.cpp - A training loop whose progress a test controls -----===//
//
// The program `sonde live`'s tests and its latency benchmark follow while
// it runs (test/live/check_live.py, bench/live-latency.py):
//
//   live-steps STEPS [--go DIR] [--period-ms N] [--nan-at K]
//              [--steps-per-epoch N]
//
// Each step is a `train.step` region with the `epoch` and `step` args as
// context, holding a `data` fetch and a `forward` region, then a `loss`
// watch of 1 / (step + 1) (NaN at step K with --nan-at). With --go, after
// step k's records the program waits until the file DIR/go-k exists: the
// test decides when the next step runs, so nothing depends on timing. With
// --period-ms, it sleeps N ms after each step instead (the benchmark: a
// slow producer, the case the writer's flush delay is for).
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <thread>

namespace {

sonde::Site StepSite(sonde::SiteKind::Region, "pipeline.step", "train.step",
                     "LiveSteps.cpp", 40, "main", 0, sonde::ContextArgs,
                     "epoch,step");
sonde::Site FetchSite(sonde::SiteKind::Region, "dataloader.fetch", "data",
                      "LiveSteps.cpp", 41, "main");
sonde::Site ForwardSite(sonde::SiteKind::Region, "compute.forward", "forward",
                        "LiveSteps.cpp", 42, "main");
sonde::Site LossSite(sonde::SiteKind::Watch, "metric", "loss", "LiveSteps.cpp",
                     43, "main");

/// Some work, so that the regions have a length.
double spin(long N) {
  volatile double X = 0;
  for (long I = 0; I < N; ++I)
    X = X + std::sqrt(static_cast<double>(I));
  return X;
}

bool exists(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0;
}

long number(const char *Flag, const char *Text) {
  char *End = nullptr;
  long V = std::strtol(Text, &End, 10);
  if (*End || V < 0) {
    std::fprintf(stderr, "live-steps: %s %s: not a count\n", Flag, Text);
    std::exit(2);
  }
  return V;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: live-steps STEPS [--go DIR] [--period-ms N] "
                         "[--nan-at K] [--steps-per-epoch N]\n");
    return 2;
  }
  long Steps = number("STEPS", Argv[1]);
  std::string Go;
  long PeriodMs = 0, NanAt = -1, PerEpoch = 10;
  for (int I = 2; I + 1 < Argc; I += 2) {
    std::string A = Argv[I];
    if (A == "--go")
      Go = Argv[I + 1];
    else if (A == "--period-ms")
      PeriodMs = number(Argv[I], Argv[I + 1]);
    else if (A == "--nan-at")
      NanAt = number(Argv[I], Argv[I + 1]);
    else if (A == "--steps-per-epoch")
      PerEpoch = number(Argv[I], Argv[I + 1]);
    else {
      std::fprintf(stderr, "live-steps: unknown option %s\n", Argv[I]);
      return 2;
    }
  }
  if (PerEpoch == 0)
    PerEpoch = 1;
  for (long Step = 0; Step < Steps; ++Step) {
    {
      sonde::Region S(StepSite, Step / PerEpoch + 1, Step % PerEpoch);
      {
        sonde::Region F(FetchSite);
        spin(20000);
      }
      {
        sonde::Region F(ForwardSite);
        spin(60000);
      }
      double Loss = Step == NanAt ? std::nan("") : 1.0 / double(Step + 1);
      sonde::watchScalar(LossSite, Loss);
    }
    std::printf("step %ld\n", Step);
    std::fflush(stdout);
    if (!Go.empty()) {
      // The test says when to go on; bounded, so a broken test cannot
      // leave the program behind.
      std::string Flag = Go + "/go-" + std::to_string(Step);
      auto Until = std::chrono::steady_clock::now() + std::chrono::minutes(5);
      while (!exists(Flag)) {
        if (std::chrono::steady_clock::now() > Until) {
          std::fprintf(stderr, "live-steps: %s never came\n", Flag.c_str());
          return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    } else if (PeriodMs) {
      std::this_thread::sleep_for(std::chrono::milliseconds(PeriodMs));
    }
  }
  return 0;
}
