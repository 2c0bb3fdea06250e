//===- InvariantsTest.cpp - Each relation: holds, broken, rare, trivial ---===//
//
// Training-like traces built in memory (a loop of steps, each with a
// zero_grad, a forward, an optimizer step with its learning rate, the
// loss, the batch's hash and shape, two parameters' hashes), learned from
// with `sonde infer`'s Inferrer and checked with `sonde check`'s Checker,
// events fed one at a time as a streaming reader would. For each relation:
// it is learned from good runs and a good run passes; a seeded change
// breaks it and the violation names the right site; too few occurrences
// keep it out; a trivially true variant is never learned.
//
//===----------------------------------------------------------------------===//

#include "invariants/Invariants.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace sonde::trace;
using namespace sonde::trace::inv;

namespace {

/// What to change in a run.
struct Knobs {
  int Steps = 20;
  int Epochs = 1;
  uint64_t Seed = 1;
  int NoZeroGradAt = -1;  ///< that step has no zero_grad
  int StepFirstAt = -1;   ///< that step runs step() before forward()
  int FrozenFrom = -1;    ///< p1 stops changing from that step
  int LrChangeAt = -1;    ///< the lr becomes 0 from that step
  bool LrDecay = false;   ///< lr halves at each epoch
  int SameBatchFrom = -1; ///< the batch hash stops changing
  int NanLossAt = -1;
  int BigLossAt = -1;
  int LossUpAt = -1;     ///< the loss goes up at that step
  int LastShape = 32;    ///< the last batch of an epoch
  int ShapeBreakAt = -1; ///< a short batch in the middle of an epoch
  bool ApiInZeroGrad = true;
  bool EpochRegion = true; ///< the epoch loop is probed
  int HashSkewFrom = -1;   ///< p1's hash takes another value from that step
  bool EmptyHash = false;  ///< p1's hash is "" while frozen
  std::vector<int> HalfAt; ///< the batch's dtype is float16 at those steps
};

class Builder {
public:
  Trace T;
  uint32_t Epoch, Block, ZeroGrad, ZeroGradApi, Forward, Step, Loss, State,
      Data, Counter;

  explicit Builder(uint64_t Pid) {
    T.Path = "run-" + std::to_string(Pid) + ".sonde";
    T.Process.Pid = Pid;
    T.Process.StartNs = 1000;
    T.Sites.resize(1);
    T.Threads.push_back({0, Pid, "main"});
    T.ArgSets.push_back(std::make_unique<Args>());
    Epoch = site(SiteKind::Loop, "pipeline.epoch", "epoch.block", 5, {"epoch"});
    Block =
        site(SiteKind::Loop, "dataloader.fetch", "fetch.block", 10, {"step"});
    ZeroGrad = site(SiteKind::Region, "compute", "zero_grad", 12);
    ZeroGradApi = site(SiteKind::Api, "api", "Optimizer::zero_grad", 12);
    Forward = site(SiteKind::Region, "compute.forward", "forward", 13);
    Step = site(SiteKind::Region, "compute.step", "step", 15, {"lr"});
    Loss = site(SiteKind::Watch, "user", "loss", 16);
    State = site(SiteKind::State, "state", "model", 15);
    Data = site(SiteKind::Watch, "user", "data", 11);
    Counter = site(SiteKind::Watch, "user", "seen", 17);
  }

  uint32_t site(SiteKind K, std::string Cat, std::string Name, uint32_t Line,
                std::vector<std::string> ArgNames = {}) {
    SiteInfo S;
    S.Id = static_cast<uint32_t>(T.Sites.size());
    S.Kind = K;
    S.Category = std::move(Cat);
    S.Name = std::move(Name);
    S.File = "/src/train.cpp";
    S.Line = Line;
    S.Function = "train_epoch";
    S.ArgNames = std::move(ArgNames);
    T.Sites.push_back(S);
    return S.Id;
  }

  const Args *args(Args A) {
    T.ArgSets.push_back(std::make_unique<Args>(std::move(A)));
    return T.ArgSets.back().get();
  }

  void region(uint32_t Site, int64_t Ts, int64_t Dur, const Args *A = nullptr,
              int64_t Iter = -1) {
    Event E;
    E.Kind = EventKind::Region;
    E.Site = Site;
    E.Ts = Ts;
    E.Dur = Dur;
    E.Iter = Iter;
    E.A = A ? A : T.ArgSets[0].get();
    T.Events.push_back(E);
  }

  void watch(uint32_t Site, int64_t Ts, Value V) {
    Event E;
    E.Kind = EventKind::Watch;
    E.Site = Site;
    E.Ts = Ts;
    E.V = std::move(V);
    E.A = T.ArgSets[0].get();
    T.Events.push_back(E);
  }
};

Value num(double X) {
  Value V;
  V.K = Value::Kind::Float;
  V.F = X;
  return V;
}

Value integer(int64_t X) {
  Value V;
  V.K = Value::Kind::Int;
  V.I = X;
  return V;
}

std::string hex(uint64_t X) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "%016llx",
                static_cast<unsigned long long>(X));
  return Buf;
}

Value shapeValue(int Rows) {
  return Value::array({integer(Rows), integer(28)});
}

/// One training run: Epochs x Steps iterations of the step loop.
Trace makeRun(const Knobs &K) {
  Builder B(100 + K.Seed);
  int64_t T = 10000;
  double Lr = 0.05;
  int Global = 0;
  double LossV = 2.5 + 0.01 * static_cast<double>(K.Seed);
  for (int Ep = 0; Ep < K.Epochs; ++Ep) {
    int64_t EpochDur = int64_t(K.Steps) * 1000 + 10;
    if (K.EpochRegion)
      B.region(B.Epoch, T, EpochDur, B.args({{"epoch", integer(Ep + 1)}}), Ep);
    T += 1;
    for (int S = 0; S < K.Steps; ++S, ++Global) {
      int64_t S0 = T;
      B.region(B.Block, S0, 900, B.args({{"step", integer(S)}}), S);
      uint64_t BatchHash = K.SameBatchFrom >= 0 && Global >= K.SameBatchFrom
                               ? 77
                               : 1000 + uint64_t(Global);
      int Rows = S + 1 == K.Steps ? K.LastShape : 64;
      if (Global == K.ShapeBreakAt)
        Rows = 16;
      B.watch(B.Data, S0 + 5,
              Value::object(
                  {{"dtype", Value::string(std::count(K.HalfAt.begin(),
                                                      K.HalfAt.end(), Global)
                                               ? "float16"
                                               : "float32")},
                   {"shape", shapeValue(Rows)},
                   {"hash", Value::string(hex(BatchHash))}}));
      if (Global != K.NoZeroGradAt) {
        B.region(B.ZeroGrad, S0 + 10, 50);
        if (K.ApiInZeroGrad) {
          B.watch(B.ZeroGradApi, S0 + 11,
                  Value::object({{"phase", Value::string("pre")},
                                 {"call", integer(Global * 2 + 1)},
                                 {"args", Value::array({})}}));
        }
      }
      if (K.LrChangeAt >= 0 && Global >= K.LrChangeAt)
        Lr = 0;
      bool StepFirst = Global == K.StepFirstAt;
      B.region(StepFirst ? B.Step : B.Forward, S0 + 100, 100,
               StepFirst ? B.args({{"lr", num(Lr)}}) : nullptr);
      B.region(StepFirst ? B.Forward : B.Step, S0 + 300, 100,
               StepFirst ? nullptr : B.args({{"lr", num(Lr)}}));
      LossV *= 0.97;
      double Shown = LossV;
      if (Global == K.NanLossAt)
        Shown = std::numeric_limits<double>::quiet_NaN();
      if (Global == K.BigLossAt)
        Shown = 1000;
      if (Global == K.LossUpAt)
        Shown = LossV * 1.05 / 0.97;
      B.watch(B.Loss, S0 + 500, num(Shown));
      B.watch(B.Counter, S0 + 510, integer(Global));
      for (int P = 0; P < 2; ++P) {
        bool Frozen = P == 0 && K.FrozenFrom >= 0 && Global >= K.FrozenFrom;
        uint64_t H = Frozen ? 5 : 1u << 20 | uint64_t(Global) << 4 | P;
        H ^= K.Seed << 40;
        if (P == 0 && K.HashSkewFrom >= 0 && Global >= K.HashSkewFrom)
          H ^= 0xabc;
        B.watch(
            B.State, S0 + 600 + P,
            Value::object(
                {{"param", Value::string(P ? "fc.bias" : "fc.weight")},
                 {"hash", Value::string(Frozen && K.EmptyHash ? "" : hex(H))},
                 {"requires_grad", [] {
                    Value V;
                    V.K = Value::Kind::Bool;
                    V.B = true;
                    return V;
                  }()}}));
      }
      T += 1000;
    }
    if (K.LrDecay)
      Lr /= 2;
    T += 20;
  }
  B.T.Process.EndNs = T;
  return std::move(B.T);
}

std::vector<Invariant> learn(const std::vector<Trace> &Runs,
                             uint64_t MinSupport = 10) {
  InferOptions O;
  O.MinSupport = MinSupport;
  Inferrer In(O);
  for (const Trace &T : Runs) {
    for (const Event &E : T.Events)
      In.observe(T, E);
    In.endTrace();
  }
  return In.finish();
}

CheckReport check(const std::vector<Invariant> &Invs, const Trace &T) {
  Checker C(Invs);
  for (const Event &E : T.Events)
    C.observe(T, E);
  C.endTrace();
  return C.finish();
}

std::vector<Trace> goodRuns(Knobs K = {}) {
  std::vector<Trace> Runs;
  K.Seed = 1;
  Runs.push_back(makeRun(K));
  K.Seed = 2;
  Runs.push_back(makeRun(K));
  return Runs;
}

const Invariant *findInv(const std::vector<Invariant> &Invs,
                         const std::string &Relation,
                         const std::string &SubjectHas,
                         const std::string &OtherHas = "") {
  for (const Invariant &I : Invs)
    if (I.Relation == Relation &&
        I.Subject.find(SubjectHas) != std::string::npos &&
        (OtherHas.empty() || I.Other.find(OtherHas) != std::string::npos))
      return &I;
  return nullptr;
}

/// The first violation of `Relation`, or null.
const Violation *violated(const CheckReport &R, const std::string &Relation) {
  for (const Violation &V : R.Violations)
    if (V.Inv->Relation == Relation)
      return &V;
  return nullptr;
}

std::string describe(const CheckReport &R) {
  std::string S;
  for (const Violation &V : R.Violations)
    S += V.Inv->Text + " -- " + V.First.Detail + "\n";
  return S;
}

class Relations : public ::testing::Test {
protected:
  std::vector<Invariant> Invs = learn(goodRuns());
  Knobs Third = [] {
    Knobs K;
    K.Seed = 3;
    return K;
  }();
};

TEST_F(Relations, ARegionGivenAfterWhatItHoldsIsJudgedByNoRelation) {
  // The reader gives a region before what it holds, holding up to its
  // look-ahead of records; a region that holds more (an epoch of a long
  // run) comes after records it holds (TraceStream::late(), said by check
  // and infer). Its scope then saw only part of them: no relation judges
  // it, rather than report its iteration as missing a step or a forward.
  Knobs K = Third;
  K.Epochs = 2;
  Trace Run = makeRun(K);
  // Two epochs a run: an epoch's relations are kept at a support of 4.
  std::vector<Invariant> Learnt = learn(goodRuns(K), /*MinSupport=*/4);
  ASSERT_TRUE(std::any_of(Learnt.begin(), Learnt.end(), [](const auto &I) {
    return I.Relation == "contains" &&
           I.Scope.find("epoch.block") != std::string::npos &&
           I.Subject.find("forward") != std::string::npos;
  }));
  // Each epoch's region before only its last two records, as the reader
  // gives it when its look-ahead is two records.
  std::vector<Event> Late;
  std::vector<Event> &Ev = Run.Events;
  auto IsEpoch = [&Run](const Event &E) {
    return Run.Sites[E.Site].Name == "epoch.block";
  };
  for (size_t I = 0; I < Ev.size(); ++I) {
    if (!IsEpoch(Ev[I])) {
      Late.push_back(Ev[I]);
      continue;
    }
    size_t End = I + 1;
    while (End < Ev.size() && !IsEpoch(Ev[End]))
      ++End;
    size_t Half = End - 2;
    Late.insert(Late.end(), Ev.begin() + I + 1, Ev.begin() + Half);
    Late.push_back(Ev[I]);
    Late.insert(Late.end(), Ev.begin() + Half, Ev.begin() + End);
    I = End - 1;
  }
  ASSERT_EQ(Late.size(), Ev.size());
  Ev = std::move(Late);
  CheckReport R = check(Learnt, Run);
  EXPECT_TRUE(R.Violations.empty()) << describe(R);
}

TEST_F(Relations, ALateRegionOfTheSameNanosecondIsToldByWhatItHolds) {
  // The same when every record given before the region started when it
  // did: the first step's region, given first, starts at the epoch's
  // nanosecond, and the epoch holds it and more.
  Knobs K = Third;
  K.Epochs = 2;
  Trace Run = makeRun(K);
  std::vector<Invariant> Learnt = learn(goodRuns(K), /*MinSupport=*/4);
  std::vector<Event> &Ev = Run.Events;
  for (size_t I = 0; I + 1 < Ev.size(); ++I)
    if (Run.Sites[Ev[I].Site].Name == "epoch.block") {
      Ev[I].Dur += Ev[I].Ts - Ev[I + 1].Ts;
      Ev[I].Ts = Ev[I + 1].Ts; // the first step's start
      std::swap(Ev[I], Ev[I + 1]);
      ++I;
    }
  CheckReport R = check(Learnt, Run);
  EXPECT_TRUE(R.Violations.empty()) << describe(R);
}

TEST_F(Relations, AGoodRunBreaksNothing) {
  CheckReport R = check(Invs, makeRun(Third));
  EXPECT_TRUE(R.Violations.empty()) << describe(R);
  EXPECT_EQ(R.Unexercised, 0u);
  EXPECT_GT(Invs.size(), 10u);
}

TEST_F(Relations, SiteKeysNameCategoryFunctionFileAndLine) {
  const Invariant *I = findInv(Invs, "precedes", "forward", "zero_grad");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Subject,
            "compute.forward/forward in train_epoch at train.cpp:13");
  EXPECT_EQ(I->Scope,
            "dataloader.fetch/fetch.block in train_epoch at train.cpp:10");
  EXPECT_EQ(I->Support, 40u); // 20 steps in each of two runs
}

// --- order ---------------------------------------------------------------

TEST_F(Relations, OrderHoldsAndBreaks) {
  ASSERT_NE(findInv(Invs, "precedes", "step", "forward"), nullptr);
  Knobs K = Third;
  K.StepFirstAt = 7;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "precedes");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 1u);
  EXPECT_NE(V->Inv->Subject.find("compute.step/step"), std::string::npos);
  EXPECT_EQ(V->First.Line, 15u);
  EXPECT_NE(V->First.Detail.find("came only after"), std::string::npos);
}

TEST_F(Relations, ASiteTheFirstTraceLacksIsFoundInTheNext) {
  // One Checker over several traces (sonde check of a directory): a run
  // with no zero_grad at all breaks the order and containment invariants
  // that name it; a good run after it breaks nothing. The name, not found
  // in the first, is looked up again in the second (it was kept as found,
  // at an id no site has, and every iteration after broke them).
  Trace Without = makeRun(Third);
  Without.Events.erase(
      std::remove_if(Without.Events.begin(), Without.Events.end(),
                     [&](const Event &E) {
                       return Without.site(E.Site).Name.find("zero_grad") !=
                              std::string::npos;
                     }),
      Without.Events.end());
  CheckReport Alone = check(Invs, Without);
  ASSERT_NE(violated(Alone, "precedes"), nullptr) << describe(Alone);
  ASSERT_NE(violated(Alone, "contains"), nullptr) << describe(Alone);
  Trace Good = makeRun(Third);
  Checker C(Invs);
  for (const Trace *T : {&Without, &Good}) {
    for (const Event &E : T->Events)
      C.observe(*T, E);
    C.endTrace();
  }
  CheckReport Both = C.finish();
  ASSERT_EQ(Both.Violations.size(), Alone.Violations.size()) << describe(Both);
  for (size_t I = 0; I < Both.Violations.size(); ++I) {
    EXPECT_EQ(Both.Violations[I].Inv, Alone.Violations[I].Inv);
    EXPECT_EQ(Both.Violations[I].Count, Alone.Violations[I].Count)
        << Both.Violations[I].Inv->Text;
  }
}

TEST_F(Relations, OrderKeepsOnlyTheTransitiveReduction) {
  // zero_grad < forward < step: zero_grad < step says nothing more.
  EXPECT_NE(findInv(Invs, "precedes", "forward", "zero_grad"), nullptr);
  EXPECT_EQ(findInv(Invs, "precedes", "step", "zero_grad"), nullptr);
}

TEST(RelationsSupport, OrderAndContainmentNeedMinSupport) {
  Knobs K;
  K.Steps = 4; // 8 iterations in two runs, under 10
  std::vector<Invariant> Invs = learn(goodRuns(K));
  EXPECT_EQ(findInv(Invs, "precedes", "forward"), nullptr);
  EXPECT_EQ(findInv(Invs, "contains", "forward"), nullptr);
  Invs = learn(goodRuns(K), 8);
  EXPECT_NE(findInv(Invs, "precedes", "forward"), nullptr);
  EXPECT_NE(findInv(Invs, "contains", "forward"), nullptr);
}

TEST_F(Relations, OrderRejectsTheTriviallyTrue) {
  // The API record inside zero_grad's region, on the same line: the
  // region always starts first.
  EXPECT_EQ(findInv(Invs, "precedes", "Optimizer::zero_grad", "zero_grad"),
            nullptr);
  // An epoch region starts before every step it holds: by construction.
  EXPECT_EQ(findInv(Invs, "precedes", "fetch.block", "epoch.block"), nullptr);
}

// --- containment ---------------------------------------------------------

TEST_F(Relations, ContainmentHoldsAndBreaks) {
  const Invariant *I = findInv(Invs, "contains", "compute/zero_grad");
  ASSERT_NE(I, nullptr);
  EXPECT_NE(I->Scope.find("fetch.block"), std::string::npos);
  Knobs K = Third;
  K.NoZeroGradAt = 3;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "contains");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_NE(V->Inv->Subject.find("zero_grad"), std::string::npos);
  EXPECT_EQ(V->First.Line, 10u); // the step's loop, where it is missing
  EXPECT_EQ(V->First.Since, 10000 + 1 + 3 * 1000 - 1000);
  // The order invariant sees it too: forward has no zero_grad before it.
  ASSERT_NE(violated(R, "precedes"), nullptr);
}

TEST_F(Relations, ContainmentRejectsTheSameStatement) {
  // zero_grad's region always holds its own API record (line 12 both).
  for (const Invariant &I : Invs)
    if (I.Relation == "contains")
      EXPECT_FALSE(I.Scope.find("compute/zero_grad") != std::string::npos &&
                   I.Subject.find("Optimizer::zero_grad") != std::string::npos);
}

// --- state ---------------------------------------------------------------

TEST_F(Relations, ParametersChangeAfterEveryStep) {
  const Invariant *I = findInv(Invs, "changes", "[fc.weight]");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Support, 38u); // 19 pairs in each run
  Knobs K = Third;
  K.FrozenFrom = 5;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "changes");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_NE(V->Inv->Subject.find("[fc.weight]"), std::string::npos);
  EXPECT_EQ(V->Count, 14u); // steps 6..19 equal their predecessor
}

TEST(RelationsState, FrozenParametersStayFrozen) {
  Knobs K;
  K.FrozenFrom = 0;
  std::vector<Invariant> Invs = learn(goodRuns(K));
  ASSERT_NE(findInv(Invs, "frozen", "[fc.weight]"), nullptr);
  EXPECT_EQ(findInv(Invs, "changes", "[fc.weight]"), nullptr);
  K.Seed = 3;
  K.FrozenFrom = -1; // now it trains
  CheckReport R = check(Invs, makeRun(K));
  ASSERT_NE(violated(R, "frozen"), nullptr) << describe(R);
}

TEST(RelationsState, AnEmptyHashIsAFingerprintToo) {
  // A parameter's identity is its hash whatever its text, "" included:
  // frozen while it stays "", broken when it turns to another.
  Knobs K;
  K.FrozenFrom = 0;
  K.EmptyHash = true;
  std::vector<Invariant> Invs = learn(goodRuns(K));
  ASSERT_NE(findInv(Invs, "frozen", "[fc.weight]"), nullptr);
  K.Seed = 3;
  K.FrozenFrom = 4; // "" from step 4 on: trained before
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "frozen");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 4u) << V->First.Detail; // steps 1 to 4
}

TEST(RelationsState, LearningRateChangesOnlyAtEpochs) {
  Knobs K;
  K.Epochs = 3;
  K.LrDecay = true;
  std::vector<Invariant> Invs = learn(goodRuns(K));
  const Invariant *I = findInv(Invs, "constant_within", " arg lr");
  ASSERT_NE(I, nullptr);
  EXPECT_NE(I->Scope.find("epoch.block"), std::string::npos);
  // Not constant: no argument.same for it.
  EXPECT_EQ(findInv(Invs, "same", " arg lr"), nullptr);
  K.Seed = 3;
  EXPECT_TRUE(check(Invs, makeRun(K)).Violations.empty());
  K.LrChangeAt = 25; // in the middle of the second epoch
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "constant_within");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 1u);
  EXPECT_EQ(V->First.Line, 15u);
}

TEST(RelationsState, AConstantIsNotConstantWithin) {
  // The lr never changes: argument.same says it; constant_within would be
  // implied by it, so it is not kept.
  std::vector<Invariant> Invs = learn(goodRuns());
  EXPECT_NE(findInv(Invs, "same", " arg lr"), nullptr);
  EXPECT_EQ(findInv(Invs, "constant_within", " arg lr"), nullptr);
}

TEST(RelationsState, StateNeedsMinSupport) {
  Knobs K;
  K.Steps = 5; // 4 pairs a run
  EXPECT_EQ(findInv(learn(goodRuns(K)), "changes", "[fc.weight]"), nullptr);
}

// --- value ---------------------------------------------------------------

TEST_F(Relations, FiniteHoldsAndBreaks) {
  ASSERT_NE(findInv(Invs, "finite", "user/loss"), nullptr);
  Knobs K = Third;
  K.NanLossAt = 12;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "finite");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->First.Line, 16u);
  EXPECT_NE(V->First.Detail.find("nan"), std::string::npos);
}

TEST_F(Relations, ARepeatedValueIsCheckedAgainOnlyWhenItBrokeSomething) {
  // The Feed does not send a pure check (value.fixed) a value it sent
  // last time, if that one held; a value that broke it is sent again, and
  // a good one after a bad one too.
  ASSERT_NE(findInv(Invs, "fixed", "value.dtype"), nullptr);
  Knobs K = Third;
  K.HalfAt = {5, 6, 12};
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "fixed");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_NE(V->Inv->Subject.find("value.dtype"), std::string::npos);
  EXPECT_EQ(V->Count, 3u);
  EXPECT_NE(V->First.Detail.find("float16"), std::string::npos);
  EXPECT_EQ(R.Violations.size(), 1u) << describe(R);
}

TEST_F(Relations, FiniteIsNotLearnedForIntegers) {
  EXPECT_EQ(findInv(Invs, "finite", "user/seen"), nullptr);
}

TEST_F(Relations, RangeHoldsWithAMarginAndBreaks) {
  const Invariant *I = findInv(Invs, "range", "user/loss");
  ASSERT_NE(I, nullptr);
  EXPECT_LT(I->Lo, 2.51 * std::pow(0.97, 20));
  EXPECT_GT(I->Hi, 2.52 * 0.97);
  Knobs K = Third;
  K.BigLossAt = 9;
  CheckReport R = check(Invs, makeRun(K));
  ASSERT_NE(violated(R, "range"), nullptr) << describe(R);
}

TEST_F(Relations, ANewValueThatPassesIsToldWithoutACallAndOneThatBreaksIsNot) {
  // finite and range say nothing of a value that passes them (Sink::quiet):
  // on a stream checked by them alone, the Feed tells such a value without
  // a call, and still sends every value that breaks one, each counted.
  std::vector<Invariant> Some;
  for (const Invariant &I : Invs)
    if (I.Relation != "monotone")
      Some.push_back(I);
  ASSERT_NE(findInv(Some, "finite", "user/loss"), nullptr);
  ASSERT_NE(findInv(Some, "range", "user/loss"), nullptr);
  EXPECT_TRUE(check(Some, makeRun(Third)).Violations.empty());
  Knobs K = Third;
  K.BigLossAt = 9;
  K.NanLossAt = 12;
  CheckReport R = check(Some, makeRun(K));
  const Violation *Finite = violated(R, "finite");
  ASSERT_NE(Finite, nullptr) << describe(R);
  EXPECT_EQ(Finite->Count, 1u);
  EXPECT_NE(Finite->First.Detail.find("nan"), std::string::npos);
  const Violation *Range = violated(R, "range");
  ASSERT_NE(Range, nullptr) << describe(R);
  EXPECT_EQ(Range->Count, 2u); // 1000, then NaN: in no range
  EXPECT_NE(Range->First.Detail.find("1000"), std::string::npos);
  EXPECT_EQ(R.Unexercised, 0u);
}

TEST_F(Relations, NoRangeOrMonotoneOnAConstant) {
  EXPECT_NE(findInv(Invs, "fixed", "value.dtype"), nullptr);
  EXPECT_EQ(findInv(Invs, "range", "requires_grad"), nullptr);
  EXPECT_EQ(findInv(Invs, "monotone", "requires_grad"), nullptr);
}

TEST_F(Relations, MonotoneHoldsAndBreaks) {
  const Invariant *Up = findInv(Invs, "monotone", "user/seen");
  ASSERT_NE(Up, nullptr);
  EXPECT_EQ(Up->Direction, "increasing");
  const Invariant *Down = findInv(Invs, "monotone", "user/loss");
  ASSERT_NE(Down, nullptr);
  EXPECT_EQ(Down->Direction, "decreasing");
  Knobs K = Third;
  K.LossUpAt = 8;
  CheckReport R = check(Invs, makeRun(K));
  ASSERT_NE(violated(R, "monotone"), nullptr) << describe(R);
}

TEST(RelationsValue, ShapeFixedButForTheLastBatchOfAnEpoch) {
  Knobs K;
  K.Epochs = 2;
  std::vector<Invariant> Invs = learn(goodRuns(K));
  const Invariant *I = findInv(Invs, "fixed",
                               "user/data in train_epoch at "
                               "train.cpp:11 value.shape");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Value, "[64,28]");
  EXPECT_NE(I->Scope.find("epoch.block"), std::string::npos);
  K.Seed = 3;
  EXPECT_TRUE(check(Invs, makeRun(K)).Violations.empty());
  K.ShapeBreakAt = 4; // a short batch that is not the last
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "fixed");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 1u);
}

TEST(RelationsValue, OneRecordPerIterationIsNoExceptLast) {
  // Every batch is in its own step iteration: "all but the last of each"
  // would allow anything. Without the epoch region, nothing encloses
  // several.
  Knobs K;
  K.EpochRegion = false;
  std::vector<Invariant> Invs = learn(goodRuns(K));
  EXPECT_EQ(findInv(Invs, "fixed", "value.shape"), nullptr);
}

// --- argument ------------------------------------------------------------

TEST_F(Relations, SameArgumentHoldsAndBreaks) {
  const Invariant *I = findInv(Invs, "same", " arg lr");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Value, "0.05");
  Knobs K = Third;
  K.LrChangeAt = 10;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "same");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 10u);
  EXPECT_EQ(V->First.Line, 15u);
}

TEST_F(Relations, BatchDiffersBetweenSteps) {
  ASSERT_NE(findInv(Invs, "differs", "value.hash"), nullptr);
  Knobs K = Third;
  K.SameBatchFrom = 0;
  CheckReport R = check(Invs, makeRun(K));
  const Violation *V = violated(R, "differs");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 19u);
  EXPECT_EQ(V->First.Line, 11u);
}

TEST_F(Relations, DiffersIsNotLearnedForFloats) {
  // The loss differs at every step, but a changing float is no rule.
  EXPECT_EQ(findInv(Invs, "differs", "user/loss"), nullptr);
}

TEST(RelationsArgument, DiffersNeedsMinSupport) {
  Knobs K;
  K.Steps = 5;
  EXPECT_EQ(findInv(learn(goodRuns(K)), "differs", "value.hash"), nullptr);
}

// --- below support, every value relation ---------------------------------

TEST(RelationsSupport, ValueArgumentAndStateRelationsNeedMinSupport) {
  Knobs K;
  K.Steps = 4; // 8 records in two runs, 6 pairs
  std::vector<Trace> Runs = goodRuns(K);
  struct Expect {
    const char *Relation, *Subject;
  } All[] = {{"finite", "user/loss"},   {"range", "user/loss"},
             {"monotone", "user/seen"}, {"fixed", "value.dtype"},
             {"same", " arg lr"},       {"differs", "value.hash"},
             {"changes", "[fc.weight]"}};
  std::vector<Invariant> Few = learn(Runs), Enough = learn(Runs, 6);
  for (const Expect &E : All) {
    EXPECT_EQ(findInv(Few, E.Relation, E.Subject), nullptr) << E.Relation;
    EXPECT_NE(findInv(Enough, E.Relation, E.Subject), nullptr) << E.Relation;
  }
  K.FrozenFrom = 0;
  EXPECT_EQ(findInv(learn(goodRuns(K)), "frozen", "[fc.weight]"), nullptr);
  EXPECT_NE(findInv(learn(goodRuns(K), 6), "frozen", "[fc.weight]"), nullptr);
  Knobs D;
  D.Epochs = 2;
  D.Steps = 2;
  D.LrDecay = true; // 4 lr records a run
  EXPECT_EQ(findInv(learn(goodRuns(D)), "constant_within", " arg lr"), nullptr);
  EXPECT_NE(findInv(learn(goodRuns(D), 8), "constant_within", " arg lr"),
            nullptr);
}

// --- threads and odd records --------------------------------------------

TEST(RelationsThreads, EachThreadHasItsOwnScopesAndChains) {
  // Two threads run the same steps at the same times: a record of one is
  // never in a region of the other, nor next to the other's records.
  auto TwoThreads = [](uint64_t Seed) {
    Knobs K;
    K.Seed = Seed;
    Trace T = makeRun(K);
    T.Threads.push_back({1, 999, "worker"});
    std::vector<Event> Both;
    for (const Event &E : T.Events) {
      Both.push_back(E);
      Both.push_back(E);
      Both.back().Thread = 1;
    }
    T.Events = std::move(Both);
    return T;
  };
  std::vector<Trace> Runs;
  Runs.push_back(TwoThreads(1));
  Runs.push_back(TwoThreads(2));
  std::vector<Invariant> Invs = learn(Runs);
  const Invariant *I = findInv(Invs, "differs", "value.hash");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Support, 76u); // 19 pairs per thread and run
  CheckReport R = check(Invs, TwoThreads(3));
  EXPECT_TRUE(R.Violations.empty()) << describe(R);
}

TEST_F(Relations, RecordsOfUndeclaredSitesAndThreadsAreNoCrash) {
  Trace T = makeRun(Third);
  Event Odd = T.Events[5];
  Odd.Site = 0xfffffff0u;   // no site block declared it
  Odd.Thread = 0xfffffff0u; // nor a thread block
  T.Events.insert(T.Events.begin() + 6, Odd);
  CheckReport R = check(Invs, T);
  EXPECT_TRUE(R.Violations.empty()) << describe(R);
  EXPECT_EQ(R.Records, T.Events.size());
}

// --- streaming -----------------------------------------------------------

TEST_F(Relations, AViolationIsCountedWhenItsRecordArrives) {
  Knobs K = Third;
  K.NanLossAt = 2;
  Trace T = makeRun(K);
  Checker C(Invs);
  size_t Fed = 0;
  for (const Event &E : T.Events) {
    C.observe(T, E);
    ++Fed;
    if (E.Site == 7 && std::isnan(E.V.F))
      break;
  }
  // Stop right after the NaN: the rest of the trace is never read.
  CheckReport R = C.finish();
  ASSERT_NE(violated(R, "finite"), nullptr);
  EXPECT_LT(Fed, T.Events.size() / 2);
}

} // namespace

namespace {

/// One data-parallel job: its ranks' traces in one directory, as a run
/// writes them. `Skew` changes rank 1's run (a rank that did not average).
std::vector<Trace> job(Knobs K, const std::string &Dir, Knobs *Skew = nullptr) {
  std::vector<Trace> Ranks;
  for (int R = 0; R < 2; ++R) {
    Trace T = makeRun(R == 1 && Skew ? *Skew : K);
    T.Path = Dir + "/train-" + std::to_string(R) + ".sonde";
    T.Process.Rank = R;
    T.Process.WorldSize = 2;
    Ranks.push_back(std::move(T));
  }
  return Ranks;
}

std::vector<Invariant> learnJobs(Knobs K, uint64_t MinSupport = 10) {
  std::vector<Trace> All;
  for (uint64_t Seed : {1, 2}) {
    K.Seed = Seed;
    for (Trace &T : job(K, "job" + std::to_string(Seed)))
      All.push_back(std::move(T));
  }
  return learn(All, MinSupport);
}

CheckReport checkAll(const std::vector<Invariant> &Invs,
                     const std::vector<Trace> &Traces) {
  Checker C(Invs);
  for (const Trace &T : Traces) {
    for (const Event &E : T.Events)
      C.observe(T, E);
    C.endTrace();
  }
  return C.finish();
}

} // namespace

TEST(RelationsRanks, ParametersEqualAcrossRanksHoldAndBreak) {
  std::vector<Invariant> Invs = learnJobs({});
  const Invariant *I = findInv(Invs, "equal", "[fc.weight].hash");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Family, "ranks");
  EXPECT_EQ(I->Support, 40u); // 20 steps compared in each of two jobs
  Knobs K;
  K.Seed = 3;
  CheckReport Good = checkAll(Invs, job(K, "job3"));
  EXPECT_TRUE(Good.Violations.empty()) << describe(Good);
  Knobs Bad = K;
  Bad.HashSkewFrom = 5;
  CheckReport R = checkAll(Invs, job(K, "job4", &Bad));
  const Violation *V = violated(R, "equal");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_NE(V->Inv->Subject.find("[fc.weight].hash"), std::string::npos);
  EXPECT_EQ(V->First.Rank, 1);
  EXPECT_EQ(V->Count, 15u); // steps 5..19
  EXPECT_NE(V->First.Detail.find("on rank 0"), std::string::npos)
      << V->First.Detail;
  for (const Violation &W : R.Violations) // fc.bias still agrees
    EXPECT_EQ(W.Inv->Subject.find("[fc.bias]"), std::string::npos);
}

TEST(RelationsRanks, NeedsRanksSupportAndAChangingValue) {
  // One process: nothing to compare.
  EXPECT_EQ(findInv(learn(goodRuns()), "equal", ""), nullptr);
  // Four steps in each of two jobs: 8 comparisons, fewer than 10.
  Knobs Few;
  Few.Steps = 4;
  EXPECT_EQ(findInv(learnJobs(Few), "equal", ""), nullptr);
  EXPECT_NE(findInv(learnJobs(Few, 8), "equal", "[fc.weight].hash"), nullptr);
  // A constant is equal everywhere by itself: value.fixed says it.
  std::vector<Invariant> Invs = learnJobs({});
  EXPECT_EQ(findInv(Invs, "equal", "requires_grad"), nullptr);
  EXPECT_NE(findInv(Invs, "fixed", "requires_grad"), nullptr);
}

TEST(RelationsRanks, PastTheFirstRecordsBlocksAreCompared) {
  // 2100 records a stream: 1024 compared one by one, then a block of
  // 1024, then the last 52.
  Knobs K;
  K.Steps = 2100;
  std::vector<Invariant> Invs = learnJobs(K);
  const Invariant *I = findInv(Invs, "equal", "[fc.weight].hash");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Support, 4200u); // every record of both jobs compared
  K.Seed = 3;
  CheckReport Good = checkAll(Invs, job(K, "job3"));
  EXPECT_TRUE(Good.Violations.empty()) << describe(Good);
  Knobs Bad = K;
  Bad.HashSkewFrom = 1500;
  CheckReport R = checkAll(Invs, job(K, "job4", &Bad));
  const Violation *V = violated(R, "equal");
  ASSERT_NE(V, nullptr) << describe(R);
  EXPECT_EQ(V->Count, 2u); // the block of records 1025..2048, the last 52
  EXPECT_NE(V->First.Detail.find("records 1025 to 2048"), std::string::npos)
      << V->First.Detail;
  EXPECT_EQ(V->First.Rank, 1);
}

TEST(RelationsRanks, TwoTracesOfOneRankInADirectoryAreSaid) {
  std::vector<Invariant> Invs = learnJobs({});
  Knobs K;
  K.Seed = 3;
  std::vector<Trace> Mixed = job(K, "mixed");
  Knobs Bad = K;
  Bad.HashSkewFrom = 0;
  for (Trace &T : job(K, "mixed", &Bad))
    Mixed.push_back(std::move(T));
  CheckReport R = checkAll(Invs, Mixed);
  ASSERT_FALSE(R.Notes.empty());
  EXPECT_NE(R.Notes[0].find("a second trace of rank 0"), std::string::npos)
      << R.Notes[0];
  // Only the first trace of each rank is compared: no violation is made
  // up from the second job's rank 1 against the first's rank 0.
  EXPECT_EQ(violated(R, "equal"), nullptr) << describe(R);
}

TEST(RelationsMerge, ChecksOfPartsMergeIntoTheCheckOfTheWhole) {
  std::vector<Invariant> Invs = learn(goodRuns());
  Knobs A, B, C;
  A.Seed = 3;
  A.NoZeroGradAt = 4;
  B.Seed = 4;
  B.FrozenFrom = 2;
  C.Seed = 5;
  C.NoZeroGradAt = 1;
  auto Of = [](std::vector<Knobs> Ks) {
    std::vector<Trace> Runs;
    for (const Knobs &K : Ks)
      Runs.push_back(makeRun(K));
    return Runs;
  };
  CheckReport Whole = checkAll(Invs, Of({A, B, C}));
  std::vector<CheckReport> Parts;
  Parts.push_back(checkAll(Invs, Of({A})));
  Parts.push_back(checkAll(Invs, Of({B, C})));
  CheckReport Merged = mergeReports(std::move(Parts), Invs.size());
  EXPECT_EQ(Merged.Records, Whole.Records);
  EXPECT_EQ(Merged.Traces, Whole.Traces);
  EXPECT_EQ(Merged.Unexercised, Whole.Unexercised);
  ASSERT_EQ(Merged.Violations.size(), Whole.Violations.size())
      << describe(Whole);
  for (size_t I = 0; I < Whole.Violations.size(); ++I) {
    EXPECT_EQ(Merged.Violations[I].Inv, Whole.Violations[I].Inv);
    EXPECT_EQ(Merged.Violations[I].Count, Whole.Violations[I].Count);
    EXPECT_EQ(Merged.Violations[I].First.TracePath,
              Whole.Violations[I].First.TracePath);
    EXPECT_EQ(Merged.Violations[I].First.Ts, Whole.Violations[I].First.Ts);
  }
  EXPECT_GE(Whole.Violations.size(), 2u);
}

TEST(RelationsMerge, CheckPartsAreRunsOfEqualBytesButForRanks) {
  // sonde check merges the reports of parts checked apart (above): any
  // run of files is a part, unless an invariant compares traces.
  std::vector<Invariant> None;
  std::vector<std::string> Six = {"a/1", "a/2", "a/3", "a/4", "a/5", "a/6"};
  auto Parts = checkParts(Six, {10, 10, 10, 10, 10, 10}, None, 3);
  ASSERT_EQ(Parts.size(), 3u);
  for (const auto &P : Parts)
    EXPECT_EQ(P.size(), 2u);
  std::vector<std::string> InOrder;
  for (const auto &P : Parts)
    InOrder.insert(InOrder.end(), P.begin(), P.end());
  EXPECT_EQ(InOrder, Six);
  // A large file is a part of its own; no part is empty or past Most.
  Parts = checkParts({"b", "c", "d", "e"}, {1000, 1, 1, 1}, None, 2);
  ASSERT_EQ(Parts.size(), 2u);
  EXPECT_EQ(Parts[0], std::vector<std::string>{"b"});
  EXPECT_EQ(Parts[1], (std::vector<std::string>{"c", "d", "e"}));
  EXPECT_EQ(checkParts({"f", "g"}, {0, 0}, None, 8).size(), 2u);
  EXPECT_EQ(checkParts({"f"}, {5}, None, 8).size(), 1u);
  EXPECT_TRUE(checkParts({}, {}, None, 8).empty());
  // ranks.equal compares a job's ranks: one directory, one part.
  Invariant Ranks;
  Ranks.Family = "ranks";
  Parts = checkParts({"x/r0", "y/r0", "x/r1"}, {1, 1, 1}, {Ranks}, 8);
  ASSERT_EQ(Parts.size(), 2u);
  EXPECT_EQ(Parts[0], (std::vector<std::string>{"x/r0", "x/r1"}));
  EXPECT_EQ(Parts[1], std::vector<std::string>{"y/r0"});
}
