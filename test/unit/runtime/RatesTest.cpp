//===- RatesTest.cpp - Training rates and self time, exactly -------------===//
//
// Traces built in memory with known item counts and durations (no clock,
// no timing), fed to RateCounter and SelfTimeCounter event by event as the
// streaming reader gives them, and the rates checked to the last digit:
// warm-up apart, per epoch, the fetch before a step, nothing counted twice,
// processes side by side, open steps and nested counts left out.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "Export.h"
#include "summary/Rates.h"
#include "summary/SelfTime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace sonde::trace;

namespace {

Value integer(int64_t I) {
  Value V;
  V.K = Value::Kind::Int;
  V.I = I;
  return V;
}

/// One process's trace: sites, and region events in the order given.
struct Synth {
  Trace T;
  Synth() {
    T.Sites.resize(1);
    T.Threads.push_back({0, 1, "main"});
    T.ArgSets.push_back(std::make_unique<Args>());
  }
  uint32_t site(std::string Cat, std::vector<std::string> ArgNames = {}) {
    SiteInfo S;
    S.Id = static_cast<uint32_t>(T.Sites.size());
    S.Kind = sonde::SiteKind::Region;
    S.Category = std::move(Cat);
    S.Name = "r" + std::to_string(S.Id);
    S.ArgNames = std::move(ArgNames);
    T.Sites.push_back(S);
    return S.Id;
  }
  void region(uint32_t Site, int64_t Ts, int64_t Dur, Args A = {},
              uint32_t Thread = 0) {
    T.ArgSets.push_back(std::make_unique<Args>(std::move(A)));
    Event E;
    E.Kind = EventKind::Region;
    E.Site = Site;
    E.Thread = Thread;
    E.Ts = Ts;
    E.Dur = Dur;
    E.A = T.ArgSets.back().get();
    T.Events.push_back(E);
  }
};

/// The sites of a training loop: epochs, a range-for over the loader whose
/// `.block` carries the item count, forward and backward inside it.
struct Loop {
  Synth S;
  uint32_t Epoch = S.site("pipeline.epoch", {"epoch"});
  uint32_t Fetch = S.site("dataloader.fetch", {"step", sonde::ItemsArg});
  uint32_t Forward = S.site("compute.forward");
  uint32_t Backward = S.site("compute.backward");
  uint32_t Test = S.site("pipeline.test");
  uint32_t TestFetch = S.site("dataloader.fetch");

  /// One step at `T0`: a 100 ns fetch (`.iter`, no count), then a 900 ns
  /// body with `Items` items: forward 600 ns (holding a nested 50 ns
  /// compute region, counted once), backward 200 ns.
  void step(int64_t T0, int64_t Epoch, int64_t Step, int64_t Items) {
    Args Ctx = {{"epoch", integer(Epoch)}};
    S.region(Fetch, T0, 100, Ctx);
    S.region(Fetch, T0 + 100, 900,
             {{"epoch", integer(Epoch)},
              {"step", integer(Step)},
              {sonde::ItemsArg, integer(Items)}});
    S.region(Forward, T0 + 150, 600, Ctx);
    S.region(Backward, T0 + 200, 50, Ctx); // inside forward
    S.region(Backward, T0 + 760, 200, Ctx);
  }
};

RateTable rates(const std::vector<const Trace *> &Traces, unsigned Warmup) {
  RateCounter C(Warmup);
  for (const Trace *T : Traces) {
    C.beginTrace(*T);
    for (const Event &E : events(*T))
      C.add(E);
  }
  C.finish();
  return C.table();
}

TEST(RatesTest, StepsFetchAndComputeExactly) {
  Loop L;
  L.S.region(L.Epoch, 0, 5000, {{"epoch", integer(1)}});
  for (int I = 0; I < 5; ++I)
    L.step(1000 * I, 1, I, 64);
  RateTable R = rates({&L.S.T}, 2);
  EXPECT_EQ(R.steps(), 5u);
  EXPECT_EQ(R.Warmup.Steps, 2u);
  EXPECT_EQ(R.Warmup.Items, 128u);
  EXPECT_EQ(R.Run.Steps, 3u);
  EXPECT_EQ(R.Run.Items, 192u);
  // Train: the fetch (100) and the body (900) of each step.
  EXPECT_EQ(R.Run.TrainNs, 3000);
  // Loading: the fetch; the body is not loading though its category is.
  EXPECT_EQ(R.Run.LoadNs, 300);
  // Compute: forward 600 (the 50 inside it once) and backward 200.
  EXPECT_EQ(R.Run.ComputeNs, 2400);
  EXPECT_DOUBLE_EQ(R.Run.Train, 192e9 / 3000);
  EXPECT_DOUBLE_EQ(R.Run.Loading, 192e9 / 300);
  EXPECT_DOUBLE_EQ(R.Run.Compute, 192e9 / 2400);
  EXPECT_DOUBLE_EQ(R.Warmup.Train, 128e9 / 2000);
  ASSERT_EQ(R.Epochs.size(), 1u);
  EXPECT_EQ(R.Epochs[0].Label, "1");
  EXPECT_EQ(R.Epochs[0].Steps, 3u);
  EXPECT_DOUBLE_EQ(R.Epochs[0].Train, R.Run.Train);
}

TEST(RatesTest, EpochsAndWhatLiesBetweenThem) {
  Loop L;
  // Epoch 1: two steps, the loop's last fetch (end of data), an evaluation
  // with fetches of its own. Epoch 2: one step of 32 items.
  L.S.region(L.Epoch, 0, 10000, {{"epoch", integer(1)}});
  L.step(0, 1, 0, 64);
  L.step(1000, 1, 1, 64);
  L.S.region(L.Fetch, 2000, 70, {{"epoch", integer(1)}});
  L.S.region(L.Test, 2100, 3000, {{"epoch", integer(1)}});
  L.S.region(L.TestFetch, 2200, 400, {{"epoch", integer(1)}});
  L.S.region(L.Epoch, 10000, 5000, {{"epoch", integer(2)}});
  L.step(10000, 2, 0, 32);
  RateTable R = rates({&L.S.T}, 0);
  EXPECT_EQ(R.Warmup.Steps, 0u);
  EXPECT_EQ(R.Run.Steps, 3u);
  EXPECT_EQ(R.Run.Items, 160u);
  // Neither the last fetch nor the evaluation's goes to epoch 2's step.
  EXPECT_EQ(R.Run.TrainNs, 3000);
  EXPECT_EQ(R.Run.LoadNs, 300);
  ASSERT_EQ(R.Epochs.size(), 2u);
  EXPECT_EQ(R.Epochs[0].Label, "1");
  EXPECT_EQ(R.Epochs[0].Items, 128u);
  EXPECT_DOUBLE_EQ(R.Epochs[0].Train, 128e9 / 2000);
  EXPECT_EQ(R.Epochs[1].Label, "2");
  EXPECT_DOUBLE_EQ(R.Epochs[1].Compute, 32e9 / 800);
}

TEST(RatesTest, EpochFromTheEpochRegionWhenNoArgSaysIt) {
  Synth S;
  uint32_t Epoch = S.site("pipeline.epoch");
  uint32_t Step = S.site("compute", {sonde::ItemsArg});
  for (int E = 0; E < 2; ++E) {
    S.region(Epoch, 10000 * E, 5000);
    S.region(Step, 10000 * E + 10, 500, {{sonde::ItemsArg, integer(10)}});
  }
  RateTable R = rates({&S.T}, 0);
  ASSERT_EQ(R.Epochs.size(), 2u);
  EXPECT_EQ(R.Epochs[0].Label, "#1");
  EXPECT_EQ(R.Epochs[1].Label, "#2");
  EXPECT_DOUBLE_EQ(R.Epochs[1].Train, 10e9 / 500);
  // The step is a compute region itself: it is not compute time.
  EXPECT_EQ(R.Run.ComputeNs, 0);
  EXPECT_EQ(R.Run.Compute, 0.0);
}

TEST(RatesTest, ProcessesSideBySideAddTheirRates) {
  Loop A, B;
  A.step(0, 1, 0, 64);
  B.step(0, 1, 0, 64);
  B.step(1000, 1, 1, 64); // B: 128 items in 2000 ns
  RateTable R = rates({&A.S.T, &B.S.T}, 0);
  EXPECT_EQ(R.Run.Steps, 3u);
  EXPECT_EQ(R.Run.Items, 192u);
  EXPECT_DOUBLE_EQ(R.Run.Train, 64e9 / 1000 + 128e9 / 2000);
}

TEST(RatesTest, OpenStepsNestedCountsAndNonNumbersAreLeftOut) {
  Synth S;
  uint32_t Step = S.site("user.step", {sonde::ItemsArg});
  uint32_t Inner = S.site("user.inner", {sonde::ItemsArg});
  S.region(Step, 0, 1000, {{sonde::ItemsArg, integer(8)}});
  S.region(Inner, 100, 100, {{sonde::ItemsArg, integer(1000)}});
  S.region(Step, 2000, 1000, {{sonde::ItemsArg, Value::string("eight")}});
  S.region(Step, 4000, 500, {{sonde::ItemsArg, integer(8)}});
  S.T.Events.back().Unfinished = true;
  RateTable R = rates({&S.T}, 0);
  EXPECT_EQ(R.Run.Steps, 1u);
  EXPECT_EQ(R.Run.Items, 8u); // the inner count is part of the step's
  EXPECT_EQ(R.NotCounts, 1u);
  EXPECT_EQ(R.Unfinished, 1u);
  EXPECT_DOUBLE_EQ(R.Run.Train, 8e9 / 1000);
}

TEST(RatesTest, ThreadsKeepTheirOwnSteps) {
  Synth S;
  uint32_t Step = S.site("user.step", {sonde::ItemsArg});
  uint32_t Fetch = S.site("dataloader.fetch");
  S.T.Threads.push_back({1, 2, "worker"});
  S.region(Step, 0, 1000, {{sonde::ItemsArg, integer(4)}}, 0);
  // On another thread while thread 0's step runs: not inside that step.
  S.region(Fetch, 100, 50, {}, 1);
  S.region(Step, 200, 1000, {{sonde::ItemsArg, integer(4)}}, 1);
  RateTable R = rates({&S.T}, 0);
  EXPECT_EQ(R.Run.Steps, 2u);
  EXPECT_EQ(R.Run.TrainNs, 2050);
  EXPECT_EQ(R.Run.LoadNs, 50);
}

TEST(RatesTest, WarmupLargerThanTheRun) {
  Loop L;
  L.step(0, 1, 0, 64);
  RateTable R = rates({&L.S.T}, 5);
  EXPECT_EQ(R.Warmup.Steps, 1u);
  EXPECT_EQ(R.Run.Steps, 0u);
  EXPECT_EQ(R.Run.Train, 0.0);
  EXPECT_TRUE(R.Epochs.empty());
}

/// What `Write` prints into a FILE, as a string.
template <class Fn> std::string printed(Fn Write) {
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *F = open_memstream(&Buf, &Len);
  Write(F);
  std::fclose(F);
  std::string S(Buf, Len);
  std::free(Buf);
  return S;
}

TEST(RatesTest, SummaryJsonAndReportCarryThem) {
  Loop L;
  L.S.region(L.Epoch, 0, 5000, {{"epoch", integer(1)}});
  for (int I = 0; I < 5; ++I)
    L.step(1000 * I, 1, I, 64);
  std::vector<Trace> Ts;
  Ts.push_back(std::move(L.S.T));
  std::string Json = printed([&](std::FILE *F) { printSummaryJson(Ts, F, 2); });
  EXPECT_NE(Json.find("\"rates\":{\"warmup_steps\":2,\"steps\":5,"
                      "\"unfinished\":0,\"warmup\":{\"steps\":2,"
                      "\"items\":128,\"train_ns\":2000,\"loading_ns\":200,"
                      "\"compute_ns\":1600,\"train\":6.4e+07,"),
            std::string::npos)
      << Json;
  EXPECT_NE(Json.find("\"epochs\":[{\"epoch\":\"1\",\"steps\":3,"),
            std::string::npos)
      << Json;
  std::string Text = printed([&](std::FILE *F) { printSummary(Ts, F, 2); });
  EXPECT_EQ(
      Text.rfind("steps      5 done, 320 items (warm-up: the first 2 "
                 "of each process, shown apart)\nitems/s    train "
                 "64000000.0 | loading 640000000.0 | compute 80000000.0\n",
                 0),
      0u)
      << Text;
  std::string Error;
  std::string Html = printed([&](std::FILE *F) {
    EXPECT_TRUE(writeReport(Ts, {"t", "", 2}, F, Error)) << Error;
  });
  EXPECT_NE(Html.find("\"rates\":{\"warmup_steps\":2,\"steps\":5,"),
            std::string::npos);
}

TEST(SelfTimeTest, NestedRegionsCountOnce) {
  Loop L;
  L.S.region(L.Epoch, 0, 5000, {{"epoch", integer(1)}});
  L.step(0, 1, 0, 64);
  SelfTimeCounter C;
  C.beginTrace(L.S.T);
  for (const Event &E : events(L.S.T))
    C.add(E);
  auto By = C.byCategory();
  ASSERT_EQ(By.size(), 3u);
  // pipeline: 5000 less the fetch (100) and the body (900).
  EXPECT_EQ(By[0], std::make_pair(std::string("pipeline"), int64_t(4000)));
  // compute: forward 600 and backward 200 (the 50 inside forward is
  // forward's less, backward's more: still 800 in all).
  EXPECT_EQ(By[1], std::make_pair(std::string("compute"), int64_t(800)));
  // dataloader: the fetch 100 and the body's 900 less its 800 of compute.
  EXPECT_EQ(By[2], std::make_pair(std::string("dataloader"), int64_t(200)));
}

} // namespace
