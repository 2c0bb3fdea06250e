//===- TorchTest.cpp - Tensor summaries, containers, state and op tracing -===//
//
// Records through the public API (sonde/torch.h, sonde/containers.h) into
// this process's trace, flushes, reads the file back with the reader
// library and checks the decoded values. One libtorch translation unit.
//
//===----------------------------------------------------------------------===//

#include "sonde/torch.h"
#include "sonde/trace.h"

#include "Export.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using sonde::trace::Event;
using sonde::trace::EventKind;
using sonde::trace::Trace;
using sonde::trace::Value;

namespace {

constexpr uint8_t flags(sonde::Summary S) {
  return static_cast<uint8_t>(unsigned(S) << sonde::SummaryShift);
}

/// A watch site of this test, with a summary.
#define WATCH_SITE(Var, Name, Summary)                                         \
  static sonde::Site Var(sonde::SiteKind::Watch, "user", Name, __FILE__,       \
                         __LINE__, __func__, 0, flags(Summary))

/// Flushes and reads this process's trace.
Trace readBack() {
  sonde::flush();
  Trace T;
  std::string Error;
  EXPECT_TRUE(sonde::trace::readTrace(sonde::traceFile(), T, Error, true))
      << Error;
  return T;
}

/// The values of every watch of the site named `Name`, in order.
std::vector<Value> watches(const Trace &T, const std::string &Name) {
  std::vector<Value> Out;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Watch && T.site(E.Site).Name == Name)
      Out.push_back(E.V);
  return Out;
}

double num(const Value &V, const char *Key) {
  const Value *M = V.get(Key);
  EXPECT_NE(M, nullptr) << Key;
  return M && M->isNumber() ? M->number() : NAN;
}

std::vector<int64_t> shape(const Value &V) {
  std::vector<int64_t> S;
  if (const Value *M = V.get("shape"))
    for (const Value &D : M->items())
      S.push_back(static_cast<int64_t>(D.number()));
  return S;
}

std::vector<std::string> keys(const Value &V) {
  std::vector<std::string> K;
  for (const auto &M : V.members())
    K.push_back(M.first);
  return K;
}

class TorchTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // Before the first event: this process's trace goes to a fresh dir.
    char Dir[] = "/tmp/sonde-torch-test-XXXXXX";
    ASSERT_NE(mkdtemp(Dir), nullptr);
    setenv("SONDE_OUTPUT", Dir, 1);
  }
};

TEST_F(TorchTest, ShapeIsTheDefault) {
  WATCH_SITE(S, "t.shape", sonde::Summary::Default);
  sonde::watch(S, torch::zeros({2, 3}));
  auto V = watches(readBack(), "t.shape");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(keys(V[0]),
            (std::vector<std::string>{"dtype", "device", "shape", "numel"}));
  EXPECT_EQ(V[0].get("dtype")->str(), "float32");
  EXPECT_EQ(V[0].get("device")->str(), "cpu");
  EXPECT_EQ(shape(V[0]), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(num(V[0], "numel"), 6);
}

TEST_F(TorchTest, StatsCountNonFiniteAndSummarizeTheRest) {
  WATCH_SITE(S, "t.stats", sonde::Summary::Stats);
  auto T = torch::tensor({1.0f, 2.0f, 3.0f, 4.0f, NAN, INFINITY, -INFINITY});
  sonde::watch(S, T);
  // A non-contiguous view of the same numbers (the copy path) and doubles.
  auto Wide = torch::stack({T, T}, 1); // [7, 2]
  sonde::watch(S, Wide.select(1, 1));
  sonde::watch(S, T.to(torch::kDouble));
  auto V = watches(readBack(), "t.stats");
  ASSERT_EQ(V.size(), 3u);
  for (const Value &X : V) {
    EXPECT_EQ(num(X, "min"), 1);
    EXPECT_EQ(num(X, "max"), 4);
    EXPECT_DOUBLE_EQ(num(X, "mean"), 2.5);
    EXPECT_NEAR(num(X, "std"), std::sqrt(5.0 / 3.0), 1e-12);
    EXPECT_NEAR(num(X, "norm"), std::sqrt(30.0), 1e-12);
    EXPECT_EQ(num(X, "nan"), 1);
    EXPECT_EQ(num(X, "inf"), 2);
  }
  EXPECT_EQ(V[2].get("dtype")->str(), "float64");
}

TEST_F(TorchTest, StatsOfManyValuesMatchATen) {
  WATCH_SITE(S, "t.many", sonde::Summary::Stats);
  torch::manual_seed(3);
  // A large common offset: the shifted sums keep the deviation exact.
  auto T = torch::randn({64, 1, 28, 28}) + 1000;
  sonde::watch(S, T);
  auto V = watches(readBack(), "t.many");
  ASSERT_EQ(V.size(), 1u);
  auto D = T.to(torch::kDouble);
  EXPECT_NEAR(num(V[0], "min"), D.min().item<double>(), 1e-9);
  EXPECT_NEAR(num(V[0], "max"), D.max().item<double>(), 1e-9);
  EXPECT_NEAR(num(V[0], "mean"), D.mean().item<double>(), 1e-9);
  EXPECT_NEAR(num(V[0], "std"), D.std().item<double>(), 1e-9);
  EXPECT_NEAR(num(V[0], "norm"), D.norm().item<double>(), 1e-6);
  EXPECT_EQ(num(V[0], "numel"), 64 * 28 * 28);
}

TEST_F(TorchTest, IntegerHalfBoolZeroDimAndEmpty) {
  WATCH_SITE(S, "t.kinds", sonde::Summary::Stats);
  sonde::watch(S, torch::tensor({3, 1, 2}, torch::kLong));
  sonde::watch(S, torch::tensor({0.5, 1.5}).to(torch::kHalf));
  sonde::watch(S, torch::tensor({true, false, true}));
  sonde::watch(S, torch::tensor(7.0));   // 0-dim
  sonde::watch(S, torch::empty({0, 4})); // no element
  auto V = watches(readBack(), "t.kinds");
  ASSERT_EQ(V.size(), 5u);
  EXPECT_EQ(V[0].get("dtype")->str(), "int64");
  EXPECT_EQ(num(V[0], "min"), 1);
  EXPECT_EQ(num(V[0], "max"), 3);
  EXPECT_EQ(V[1].get("dtype")->str(), "float16");
  EXPECT_EQ(num(V[1], "mean"), 1.0);
  EXPECT_EQ(V[2].get("dtype")->str(), "bool");
  EXPECT_NEAR(num(V[2], "mean"), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(shape(V[3]), std::vector<int64_t>{});
  EXPECT_EQ(num(V[3], "numel"), 1);
  EXPECT_EQ(num(V[3], "min"), 7);
  EXPECT_EQ(num(V[3], "std"), 0);
  EXPECT_EQ(shape(V[4]), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(V[4].get("min")->K, Value::Kind::Null);
  EXPECT_EQ(num(V[4], "nan"), 0);
}

TEST_F(TorchTest, UndefinedIsNullAndComplexHasNoStats) {
  WATCH_SITE(S, "t.odd", sonde::Summary::Stats);
  sonde::watch(S, torch::Tensor());
  sonde::watch(S, torch::ones({2}, torch::kComplexFloat));
  auto V = watches(readBack(), "t.odd");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].K, Value::Kind::Null);
  EXPECT_EQ(V[1].get("dtype")->str(), "complex64");
  EXPECT_EQ(V[1].get("min")->K, Value::Kind::Null);
}

TEST_F(TorchTest, HashTellsWhetherContentChanged) {
  WATCH_SITE(S, "t.hash", sonde::Summary::Hash);
  auto T = torch::arange(1000, torch::kFloat);
  sonde::watch(S, T);
  sonde::watch(S, T.clone());
  T[999] = 0;
  sonde::watch(S, T);
  sonde::watch(S, T.view({10, 100})); // same bytes, other shape
  auto V = watches(readBack(), "t.hash");
  ASSERT_EQ(V.size(), 4u);
  std::string H[4];
  for (int I = 0; I < 4; ++I) {
    H[I] = V[I].get("hash")->str();
    EXPECT_EQ(H[I].size(), 16u);
    EXPECT_EQ(V[I].get("min"), nullptr); // hash only
  }
  EXPECT_EQ(H[0], H[1]);
  EXPECT_NE(H[0], H[2]);
  EXPECT_NE(H[2], H[3]);
}

TEST_F(TorchTest, FullIsCappedAndValueGivesScalars) {
  WATCH_SITE(Full, "t.full", sonde::Summary::Full);
  WATCH_SITE(One, "t.value", sonde::Summary::Value);
  sonde::watch(Full, torch::arange(200, torch::kLong));
  sonde::watch(Full, torch::tensor({1.5, -2.0}).t());
  sonde::watch(One, torch::tensor(0.25));
  sonde::watch(One, torch::ones({3}));
  auto T = readBack();
  auto F = watches(T, "t.full");
  ASSERT_EQ(F.size(), 2u);
  ASSERT_EQ(F[0].get("values")->items().size(), sonde::stats::FullCap);
  EXPECT_EQ(F[0].get("values")->items()[127].number(), 127);
  EXPECT_EQ(F[0].get("values")->items()[0].K, Value::Kind::Int);
  EXPECT_EQ(num(F[0], "numel"), 200);
  EXPECT_EQ(F[1].get("values")->items()[1].number(), -2.0);
  auto O = watches(T, "t.value");
  ASSERT_EQ(O.size(), 2u);
  EXPECT_EQ(num(O[0], "value"), 0.25);
  EXPECT_EQ(O[1].get("value"), nullptr);
}

TEST_F(TorchTest, ScalarLossIsShownAsANumber) {
  // A 0-dim loss watched with `summary: value`, as a training loop makes
  // it: the summary and the report show its value as they show a double's.
  WATCH_SITE(Loss, "t.scalar_loss", sonde::Summary::Value);
  for (float L : {2.5f, 1.25f, 0.75f})
    sonde::watch(Loss, torch::tensor({L, 1.0f}).select(0, 0) * 1);
  std::vector<Trace> Ts;
  Ts.push_back(readBack());
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *M = open_memstream(&Buf, &Len);
  sonde::trace::printSummary(Ts, M);
  std::string Error;
  EXPECT_TRUE(sonde::trace::writeReport(Ts, {"t", ""}, M, Error)) << Error;
  std::fclose(M);
  std::string Out(Buf, Len);
  std::free(Buf);
  size_t Row = Out.find("\nt.scalar_loss ");
  ASSERT_NE(Row, std::string::npos) << Out;
  std::string Line = Out.substr(Row + 1, Out.find('\n', Row + 1) - Row - 1);
  std::vector<std::string> F;
  for (size_t I = 0; I < Line.size();) {
    size_t E = Line.find(' ', I);
    if (E == std::string::npos)
      E = Line.size();
    if (E > I)
      F.push_back(Line.substr(I, E - I));
    I = E + 1;
  }
  // watch, function, count, first, last, min, max
  ASSERT_EQ(F.size(), 7u) << Line;
  EXPECT_EQ(F[2], "3");
  EXPECT_EQ(F[3], "2.5");
  EXPECT_EQ(F[4], "0.75");
  EXPECT_EQ(F[5], "0.75");
  EXPECT_EQ(F[6], "2.5");
  EXPECT_NE(Out.find("{\"name\":\"t.scalar_loss\",\"func\":"),
            std::string::npos);
  EXPECT_NE(Out.find("\"points\":[[0,2.5],[1,1.25],[2,0.75]]"),
            std::string::npos);
}

TEST_F(TorchTest, Containers) {
  WATCH_SITE(S, "c.stats", sonde::Summary::Default);
  WATCH_SITE(F, "c.full", sonde::Summary::Full);
  WATCH_SITE(H, "c.hash", sonde::Summary::Hash);
  std::vector<double> Vec{4, 1, 3, 2};
  std::array<int, 3> Arr{7, -1, 5};
  sonde::watch(S, Vec);
  sonde::watch(S, Arr);
  sonde::watch(F, Arr);
  sonde::watch(H, Vec);
  Vec[0] = 5;
  sonde::watch(H, Vec);
  static_assert(!sonde::watchable<std::vector<std::string>>());
  static_assert(sonde::watchable<std::vector<float>>());
  auto T = readBack();
  auto V = watches(T, "c.stats");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(shape(V[0]), std::vector<int64_t>{4});
  EXPECT_EQ(num(V[0], "mean"), 2.5);
  EXPECT_EQ(num(V[1], "min"), -1);
  EXPECT_EQ(num(V[1], "max"), 7);
  auto Fv = watches(T, "c.full");
  ASSERT_EQ(Fv.size(), 1u);
  ASSERT_EQ(Fv[0].get("values")->items().size(), 3u);
  EXPECT_EQ(Fv[0].get("values")->items()[1].number(), -1);
  auto Hv = watches(T, "c.hash");
  ASSERT_EQ(Hv.size(), 2u);
  EXPECT_NE(Hv[0].get("hash")->str(), Hv[1].get("hash")->str());
}

struct Small : torch::nn::Module {
  Small() : fc(register_module("fc", torch::nn::Linear(3, 2))) {}
  torch::nn::Linear fc;
};

TEST_F(TorchTest, StateRecordsEveryParameterAndItsGradient) {
  static sonde::Site St(sonde::SiteKind::State, "compute", "state", __FILE__,
                        __LINE__, __func__);
  static sonde::Site Hs(sonde::SiteKind::State, "compute", "state.hash",
                        __FILE__, __LINE__, __func__, 0,
                        flags(sonde::Summary::Hash));
  auto Model = std::make_shared<Small>();
  sonde::recordState(St, Model); // no gradient yet
  Model->fc(torch::ones({4, 3})).sum().backward();
  sonde::recordState(St, *Model);    // the module itself
  sonde::recordState(St, Model->fc); // a ModuleHolder
  sonde::recordState(Hs, Model);
  auto T = readBack();
  auto V = watches(T, "state");
  ASSERT_EQ(V.size(), 2u + 2u + 2u);
  EXPECT_EQ(V[0].get("param")->str(), "fc.weight");
  EXPECT_EQ(V[1].get("param")->str(), "fc.bias");
  EXPECT_EQ(V[4].get("param")->str(), "weight"); // names inside the holder
  EXPECT_EQ(V[0].get("grad")->K, Value::Kind::Null);
  EXPECT_TRUE(V[0].get("requires_grad")->B);
  EXPECT_EQ(shape(V[2]), (std::vector<int64_t>{2, 3}));
  // d(sum)/d(bias) = batch size, for each output.
  const Value *G = V[3].get("grad");
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(num(*G, "min"), 4);
  EXPECT_EQ(num(*G, "max"), 4);
  EXPECT_NEAR(num(V[2], "mean"), Model->fc->weight.mean().item<double>(), 1e-7);
  auto H = watches(T, "state.hash");
  ASSERT_EQ(H.size(), 2u);
  EXPECT_EQ(H[0].get("hash")->str().size(), 16u);
  EXPECT_EQ(H[0].get("min"), nullptr);
  EXPECT_NE(H[0].get("grad")->get("min"), nullptr);
  // The reader keeps the site kind, and the jsonl export shows it.
  for (const Event &E : T.Events)
    if (T.site(E.Site).Name == "state")
      EXPECT_EQ(T.site(E.Site).Kind, sonde::trace::SiteKind::State);
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *Out = open_memstream(&Buf, &Len);
  ASSERT_NE(Out, nullptr);
  std::vector<Trace> Ts;
  Ts.push_back(std::move(T));
  sonde::trace::exportJsonl(Ts, Out);
  std::fclose(Out);
  std::string Jsonl(Buf, Len);
  std::free(Buf);
  size_t At = Jsonl.find("\"param\":\"fc.weight\"");
  ASSERT_NE(At, std::string::npos);
  size_t LineStart = Jsonl.rfind('\n', At) + 1;
  const std::string Head = "{\"kind\":\"state\",";
  EXPECT_EQ(Jsonl.compare(LineStart, Head.size(), Head), 0)
      << Jsonl.substr(LineStart, 80);
}

TEST_F(TorchTest, OpTracingRecordsOpsInsideRegionsAndNotItsOwnWork) {
  static sonde::Site Fwd(sonde::SiteKind::Region, "compute.forward", "fwd",
                         __FILE__, __LINE__, __func__);
  static sonde::Site Before(sonde::SiteKind::Instant, "user", "before",
                            __FILE__, __LINE__, __func__);
  static sonde::Site After(sonde::SiteKind::Instant, "user", "after", __FILE__,
                           __LINE__, __func__);
  WATCH_SITE(S, "t.during_ops", sonde::Summary::Stats);
  EXPECT_TRUE(sonde::torch::enableOpTracing());
  EXPECT_TRUE(sonde::torch::enableOpTracing()); // idempotent
  torch::nn::Linear Fc(3, 2);
  auto X = torch::ones({4, 3});
  {
    sonde::Region R(Fwd);
    auto Y = Fc(X);
    auto Yt = Y.t();
    // A non-contiguous tensor: its stats copy it, without recording ops.
    sonde::instant(Before);
    sonde::watch(S, Yt);
    sonde::instant(After);
  }
  sonde::torch::disableOpTracing();
  {
    auto Z = torch::ones({2}) * 2;
  } // not recorded any more
  auto T = readBack();
  const Event *F = nullptr;
  int64_t From = 0, To = 0;
  for (const Event &E : T.Events) {
    const std::string &Name = T.site(E.Site).Name;
    if (E.Kind == EventKind::Region && Name == "fwd")
      F = &E;
    if (Name == "before")
      From = E.Ts;
    if (Name == "after")
      To = E.Ts;
  }
  ASSERT_NE(F, nullptr);
  ASSERT_LT(From, To);
  int Addmm = 0, Mul = 0, Own = 0;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Region)
      continue;
    const auto &Site = T.site(E.Site);
    if (Site.Category != "torch.op")
      continue;
    EXPECT_EQ(Site.File, "<aten>");
    Mul += Site.Name == "aten::mul";
    if (E.Ts >= From && E.Ts <= To)
      ++Own;
    if (Site.Name == "aten::addmm" && E.Ts >= F->Ts && E.Ts <= F->Ts + F->Dur) {
      ++Addmm;
      EXPECT_GT(E.Level, F->Level); // nested in the program's region
    }
  }
  EXPECT_EQ(Addmm, 1);
  EXPECT_EQ(Own, 0) << "the stats of a watch were recorded as ops";
  EXPECT_EQ(Mul, 0) << "ops recorded after disableOpTracing";
  auto V = watches(T, "t.during_ops");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(shape(V[0]), (std::vector<int64_t>{2, 4}));
  EXPECT_NEAR(num(V[0], "mean"), Fc(X).mean().item<double>(), 1e-6);
}

/// A recorded value in compact JSON: the form the exports give it.
std::string compact(const Value &V) {
  switch (V.K) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return V.B ? "true" : "false";
  case Value::Kind::Int:
    return std::to_string(V.I);
  case Value::Kind::UInt:
    return std::to_string(V.U);
  case Value::Kind::Array: {
    std::string S = "[";
    for (const Value &I : V.items())
      S += (S.size() > 1 ? "," : "") + compact(I);
    return S + "]";
  }
  default:
    return "?";
  }
}

/// Every op region directly inside the region named `Outer`, in order:
/// "name shapes", or "name -" for a region without the arg.
std::vector<std::string> opsIn(const Trace &T, const std::string &Outer) {
  const Event *O = nullptr;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Region && T.site(E.Site).Name == Outer)
      O = &E;
  std::vector<std::pair<int64_t, std::string>> Ops;
  if (!O)
    return {};
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Region || E.Level != O->Level + 1 ||
        E.Ts < O->Ts || E.Ts > O->Ts + O->Dur ||
        T.site(E.Site).Category != "torch.op")
      continue;
    std::string Shapes = "-";
    for (const auto &A : *E.A)
      if (A.first == "shapes")
        Shapes = compact(A.second);
    Ops.emplace_back(E.Ts, T.site(E.Site).Name + " " + Shapes);
  }
  std::sort(Ops.begin(), Ops.end());
  std::vector<std::string> Out;
  for (auto &P : Ops)
    Out.push_back(P.second);
  return Out;
}

/// The export of `Ts` as jsonl or chrome, as a string.
std::string exported(const std::vector<Trace> &Ts, bool Chrome) {
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *Out = open_memstream(&Buf, &Len);
  if (Chrome)
    sonde::trace::exportChrome(Ts, Out);
  else
    sonde::trace::exportJsonl(Ts, Out);
  std::fclose(Out);
  std::string S(Buf, Len);
  std::free(Buf);
  return S;
}

TEST_F(TorchTest, OpShapesAreExactInTheTraceAndItsExports) {
  static sonde::Site Plain(sonde::SiteKind::Region, "user", "without.shapes",
                           __FILE__, __LINE__, __func__);
  static sonde::Site Seq(sonde::SiteKind::Region, "user", "with.shapes",
                         __FILE__, __LINE__, __func__);
  at::Tensor A = at::ones({2, 3}), B = at::ones({3}), C = at::ones({3, 4});
  at::Tensor Zero = at::scalar_tensor(2.0);
  // First without shapes, then with: the op sites of the first mode must
  // not carry over (the same names, the other way).
  ASSERT_TRUE(sonde::torch::enableOpTracing());
  {
    sonde::Region R(Plain);
    at::add(A, B);
  }
  sonde::torch::disableOpTracing();
  ASSERT_TRUE(sonde::torch::enableOpTracing(/*Shapes=*/true));
  {
    sonde::Region R(Seq);
    at::add(A, B);
    at::mm(A, C);
    at::add(A, Zero, 3);
    at::sum(A, {1}, /*keepdim=*/true);
  }
  sonde::torch::disableOpTracing();
  Trace T = readBack();
  EXPECT_EQ(opsIn(T, "without.shapes"),
            (std::vector<std::string>{"aten::add -"}));
  // One item per input: a tensor's sizes, a number as itself (alpha), a
  // bool as itself, anything else (an int list, an absent dtype) null.
  EXPECT_EQ(opsIn(T, "with.shapes"),
            (std::vector<std::string>{
                "aten::add [[2,3],[3],1]", "aten::mm [[2,3],[3,4]]",
                "aten::add [[2,3],[],3]", "aten::sum [[2,3],null,true,null]"}));
  std::vector<Trace> Ts;
  Ts.push_back(std::move(T));
  std::string Jsonl = exported(Ts, false);
  EXPECT_NE(Jsonl.find("\"args\":{\"shapes\":[[2,3],[3,4]]}"),
            std::string::npos);
  std::string Chrome = exported(Ts, true);
  EXPECT_NE(Chrome.find("\"shapes\":[[2,3],null,true,null]"),
            std::string::npos);
}

} // namespace
