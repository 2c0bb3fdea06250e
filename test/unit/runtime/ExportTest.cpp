//===- ExportTest.cpp - The tool's exports, merge and report --------------===//
//
// Traces built in memory (exact times, args and values), run through each
// exporter into memory, and checked field by field; format 1.0 and 1.1
// files written byte by byte and read back; a real trace's boot id.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "Export.h"
#include "TraceFormat.h"
#include "exports/TraincheckNames.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace sonde::trace;

namespace {

/// A trace put together by hand: one thread, sites and events as given.
struct Builder {
  Trace T;
  Builder(uint64_t Pid, int64_t Rank, std::string Boot = "boot-a") {
    T.Path = "p" + std::to_string(Pid) + ".sonde";
    T.Process.Pid = Pid;
    T.Process.Rank = Rank;
    T.Process.Host = "node1";
    T.Process.Program = "train";
    T.Process.BootId = std::move(Boot);
    T.Process.Ended = true;
    T.Process.How = "exit";
    T.ArgSets.push_back(std::make_unique<Args>());
    T.Sites.resize(1);
    T.Threads.push_back({0, Pid, "main"});
  }
  uint32_t site(SiteKind K, std::string Cat, std::string Name,
                std::vector<std::string> ArgNames = {}) {
    SiteInfo S;
    S.Id = static_cast<uint32_t>(T.Sites.size());
    S.Kind = K;
    S.Category = std::move(Cat);
    S.Name = std::move(Name);
    S.File = "train.cpp";
    S.Line = 10 + S.Id;
    S.Function = "train_epoch";
    S.ArgNames = std::move(ArgNames);
    T.Sites.push_back(S);
    return S.Id;
  }
  const Args *args(Args A) {
    T.ArgSets.push_back(std::make_unique<Args>(std::move(A)));
    return T.ArgSets.back().get();
  }
  Event &add(EventKind K, uint32_t Site, int64_t Ts, int64_t Dur, const Args *A,
             uint32_t Level = 0) {
    Event E;
    E.Kind = K;
    E.Site = Site;
    E.Ts = Ts;
    E.Dur = Dur;
    E.Level = Level;
    E.A = A ? A : T.ArgSets.front().get();
    T.Events.push_back(E);
    return T.Events.back();
  }
  void anchor(int64_t Real, int64_t Mono) {
    T.Anchors.push_back({0, Real, Mono});
  }
};

Value num(double D) {
  Value V;
  V.K = Value::Kind::Float;
  V.F = D;
  return V;
}
Value integer(int64_t I) {
  Value V;
  V.K = Value::Kind::Int;
  V.I = I;
  return V;
}

template <typename Fn> std::string capture(Fn F) {
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *M = open_memstream(&Buf, &Len);
  F(M);
  std::fclose(M);
  std::string S(Buf, Len);
  std::free(Buf);
  return S;
}

/// What `Write` (an exporter, or a printer) writes for the one trace `B`
/// built.
template <typename Fn> std::string outputOf(Builder B, Fn Write) {
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  return capture([&](std::FILE *F) { Write(Ts, F); });
}

/// The report page of the one trace `B` built, which must be written.
std::string reportOf(Builder B, const ReportOptions &O) {
  return outputOf(std::move(B),
                  [&](const std::vector<Trace> &Ts, std::FILE *F) {
                    std::string Error;
                    EXPECT_TRUE(writeReport(Ts, O, F, Error)) << Error;
                  });
}

std::vector<std::string> lines(const std::string &S) {
  std::vector<std::string> Out;
  std::istringstream In(S);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

/// Epoch 3 on the context; a forward region of 2.5 us at a sub-us time, a
/// loss watch and an instant inside it.
Builder sample(uint64_t Pid = 100) {
  Builder B(Pid, 0);
  uint32_t Fwd = B.site(SiteKind::Region, "compute.fwd", "forward", {"bs"});
  uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
  uint32_t Mark = B.site(SiteKind::Instant, "pipeline", "mark");
  B.T.Sites[Loss].Type = "double";
  const Args *Ctx = B.args({{"epoch", integer(3)}, {"step", integer(7)}});
  const Args *Own = B.args(
      {{"epoch", integer(3)}, {"step", integer(7)}, {"bs", integer(64)}});
  B.add(EventKind::Region, Fwd, 1000000123456, 2500, Own, 1);
  B.add(EventKind::Watch, Loss, 1000000124000, 0, Ctx).V = num(0.25);
  B.add(EventKind::Instant, Mark, 1000000125000, 0, Ctx);
  B.add(EventKind::Watch, Loss, 1000000126000, 0, Ctx).V = num(0.125);
  return B;
}

TEST(ExportTest, DftracerLinesAreTheReleaseWritersShape) {
  auto L = lines(outputOf(sample(), exportDftracer));
  ASSERT_GE(L.size(), 3u);
  EXPECT_EQ(L.front(), "[");
  EXPECT_EQ(L.back(), "]");
  std::string H = std::to_string(stringHash("node1"));
  EXPECT_EQ(L[1], "{\"id\":0,\"name\":\"process_name\",\"cat\":\"dftracer\","
                  "\"pid\":100,\"tid\":100,\"ph\":\"M\",\"args\":{\"name\":"
                  "\"train (rank 0)\"}}");
  EXPECT_EQ(L[3], "{\"id\":2,\"name\":\"HH\",\"cat\":\"dftracer\",\"pid\":100,"
                  "\"tid\":100,\"ph\":\"M\",\"args\":{\"name\":\"node1\","
                  "\"value\":" +
                      H + "}}");
  // Integer microseconds: the end is floored too, so 1000000123.456 +
  // 2.5 us ends in microsecond 1000000125.
  EXPECT_EQ(L[5], "{\"id\":4,\"name\":\"forward\",\"cat\":\"compute\","
                  "\"pid\":100,\"tid\":100,\"ts\":1000000123,\"dur\":2,"
                  "\"ph\":\"X\",\"args\":{\"hhash\":" +
                      H +
                      ",\"level\":1,"
                      "\"epoch\":3,\"step\":7,\"bs\":64,\"category\":"
                      "\"compute.fwd\",\"func\":\"train_epoch\"}}");
  EXPECT_NE(L[6].find("\"name\":\"loss\""), std::string::npos);
  EXPECT_NE(L[6].find("\"dur\":0,\"ph\":\"X\""), std::string::npos);
  EXPECT_NE(L[6].find("\"value\":0.25"), std::string::npos);
  EXPECT_NE(L[7].find("\"instant\":true"), std::string::npos);
}

TEST(ExportTest, TraincheckPairsCallsAndSplitsArgsFromMetaVars) {
  Builder B = sample();
  uint32_t Step = B.site(SiteKind::Region, "compute", "step");
  B.add(EventKind::Region, Step, 1000000127000, 500, nullptr).Unfinished = true;
  auto L = lines(outputOf(std::move(B), exportTraincheck));
  ASSERT_EQ(L.size(), 5u); // pre, var, post, var, pre (unfinished: no post)
  EXPECT_EQ(L[0].rfind("{\"func_call_id\":\"100_r0\",\"thread_id\":100,"
                       "\"process_id\":100,\"meta_vars\":{\"epoch\":3,"
                       "\"step\":7},\"type\":\"function_call (pre)\","
                       "\"function\":\"forward\"",
                       0),
            0u)
      << L[0];
  // A region's own args have names: TrainCheck's kwargs, typed.
  EXPECT_NE(L[0].find("\"args\":{},\"kwargs\":{\"bs\":{\"int\":64}}"),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[0].find("\"time\":1000000123456"), std::string::npos);
  EXPECT_NE(L[1].find("\"var_name\":\"loss\",\"var_type\":\"double\","
                      "\"mode\":\"new\""),
            std::string::npos)
      << L[1];
  EXPECT_NE(L[1].find("\"attributes\":{\"value\":0.25}"), std::string::npos);
  EXPECT_NE(L[1].find("\"type\":\"state_change\""), std::string::npos);
  EXPECT_NE(L[2].find("\"func_call_id\":\"100_r0\""), std::string::npos);
  EXPECT_NE(L[2].find("\"type\":\"function_call (post)\""), std::string::npos);
  EXPECT_NE(L[2].find("\"time\":1000000125956"), std::string::npos);
  EXPECT_NE(L[2].find("\"return_values\":{\"NoneType\":null}"),
            std::string::npos)
      << L[2];
  EXPECT_NE(L[3].find("\"mode\":\"update\""), std::string::npos);
  EXPECT_NE(L[4].find("\"function\":\"step\""), std::string::npos);
  EXPECT_NE(L[4].find("function_call (pre)"), std::string::npos);
}

Value uinteger(uint64_t U) {
  Value V;
  V.K = Value::Kind::UInt;
  V.U = U;
  return V;
}

TEST(ExportTest, TraincheckApiAndStateRecords) {
  // The shapes docs/trace-format.md gives API calls (site kind 7) and
  // model state (kind 6).
  Builder B(9, 0);
  uint32_t Api =
      B.site(SiteKind::Api, "api", "torch::optim::Optimizer::step", {"step"});
  uint32_t State = B.site(SiteKind::State, "compute", "model");
  const Args *Ctx = B.args({{"epoch", integer(1)}, {"step", integer(6)}});
  Value Tensor = Value::object({{"dtype", Value::string("float32")},
                                {"shape", Value::array({integer(10)})},
                                {"mean", num(0.5)}});
  uint64_t Call = (uint64_t(1) << 40) | 5;
  B.add(EventKind::Watch, Api, 100, 0, Ctx).V =
      Value::object({{"phase", Value::string("pre")},
                     {"call", uinteger(Call)},
                     {"args", Value::array({Tensor, integer(3)})}});
  B.add(EventKind::Watch, Api, 200, 0, Ctx).V =
      Value::object({{"phase", Value::string("post")},
                     {"call", uinteger(Call)},
                     {"ret", num(2)}});
  B.add(EventKind::Watch, Api, 300, 0, Ctx).V = Value::object(
      {{"phase", Value::string("error")}, {"call", uinteger(Call + 1)}});
  for (int64_t Ts : {400, 500})
    B.add(EventKind::Watch, State, Ts, 0, Ctx).V =
        Value::object({{"param", Value::string("fc2.bias")},
                       {"dtype", Value::string("float32")},
                       {"shape", Value::array({integer(10)})},
                       {"requires_grad",
                        [] {
                          Value V;
                          V.K = Value::Kind::Bool;
                          V.B = true;
                          return V;
                        }()},
                       {"min", num(-0.25)},
                       {"grad", Value()}});
  auto L = lines(outputOf(std::move(B), exportTraincheck));
  ASSERT_EQ(L.size(), 5u);
  std::string Id = "\"func_call_id\":\"9_" + std::to_string(Call) + "\"";
  // The optimizer's step under its Python name, a bound method; meta_vars'
  // step counts the optimizer's steps (this is the first), as TrainCheck's.
  EXPECT_EQ(L[0].rfind("{" + Id +
                           ",\"thread_id\":9,\"process_id\":9,"
                           "\"meta_vars\":{\"epoch\":1,\"step\":1},\"type\":"
                           "\"function_call (pre)\",\"function\":"
                           "\"torch.optim.Optimizer.step\","
                           "\"is_bound_method\":true,\"obj_id\":",
                       0),
            0u)
      << L[0];
  // Values typed as TrainCheck's var_to_serializable writes them.
  EXPECT_NE(L[0].find("\"args\":{\"0\":{\"torch.FloatTensor\":{\"dtype\":"
                      "\"torch.float32\",\"shape\":[10],\"mean\":0.5}},"
                      "\"1\":{\"int\":3}},\"kwargs\":{}"),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[0].find("\"sonde\":{\"cxx\":\"torch::optim::Optimizer::step\""),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[1].find(Id), std::string::npos);
  EXPECT_NE(L[1].find("\"type\":\"function_call (post)\""), std::string::npos);
  EXPECT_NE(L[1].find("\"return_values\":{\"float\":2}"), std::string::npos)
      << L[1];
  EXPECT_NE(L[3].find("\"meta_vars\":{\"epoch\":1,\"step\":1}"),
            std::string::npos)
      << L[3];
  EXPECT_NE(L[2].find("\"type\":\"function_call (post) (exception)\""),
            std::string::npos);
  EXPECT_NE(L[3].find("{\"var_name\":\"fc2.bias\",\"var_type\":"
                      "\"torch.nn.Parameter\",\"mode\":\"new\""),
            std::string::npos)
      << L[3];
  EXPECT_NE(L[3].find("\"attributes\":{\"data\":{\"min\":-0.25,\"shape\":"
                      "[10]},\"grad\":null,\"dtype\":\"torch.float32\","
                      "\"shape\":[10],\"requires_grad\":true}"),
            std::string::npos)
      << L[3];
  EXPECT_NE(L[4].find("\"mode\":\"update\""), std::string::npos);
}

TEST(ExportTest, TraincheckNamesCxxCallsAsPython) {
  auto Py = [](const char *Cxx) { return pythonName(Cxx); };
  EXPECT_EQ(Py("at::nll_loss").Name, "torch.nn.functional.nll_loss");
  EXPECT_FALSE(Py("at::nll_loss").Bound);
  EXPECT_EQ(Py("torch::optim::Adam::step").Name, "torch.optim.Adam.step");
  EXPECT_TRUE(Py("torch::optim::Adam::step").Bound);
  EXPECT_EQ(Py("torch::optim::StepLR::step").Name,
            "torch.optim.lr_scheduler.StepLR.step");
  EXPECT_FALSE(isOptimizerStep(Py("torch::optim::StepLR::step").Name));
  EXPECT_TRUE(isOptimizerStep(Py("torch::optim::SGD::step").Name));
  EXPECT_EQ(Py("torch::nn::functional::relu").Name, "torch.nn.functional.relu");
  EXPECT_EQ(Py("torch::nn::LinearImpl::forward").Name,
            "torch.nn.Linear.forward");
  EXPECT_EQ(Py("torch::nn::Module::train").Name, "torch.nn.Module.train");
  EXPECT_EQ(Py("at::Tensor::backward").Name, "torch.Tensor.backward");
  EXPECT_TRUE(Py("at::Tensor::backward").Bound);
  EXPECT_EQ(Py("torch::relu").Name, "torch.relu");
  EXPECT_EQ(Py("c10d::ProcessGroupGloo::allreduce").Name,
            "torch.distributed.all_reduce");
  // No Python counterpart: the C++ name, said unmapped.
  EXPECT_EQ(Py("mylib::train_step").Name, "mylib::train_step");
  EXPECT_FALSE(Py("mylib::train_step").Mapped);
  EXPECT_FALSE(Py("(dependent)::step").Mapped);
}

TEST(ExportTest, DftracerJoinsAnApiCallsPreAndPost) {
  Builder B(9, 0);
  uint32_t Api = B.site(SiteKind::Api, "api", "torch::mse_loss", {"self"});
  uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
  const Args *Ctx = B.args({{"step", integer(2)}});
  auto Rec = [&](int64_t Ts, const char *Phase, uint64_t Call) -> Value & {
    Value &V = B.add(EventKind::Watch, Api, Ts, 0, Ctx).V;
    V = Value::object(
        {{"phase", Value::string(Phase)}, {"call", uinteger(Call)}});
    return V;
  };
  Rec(100000, "pre", 1) = Value::object({{"phase", Value::string("pre")},
                                         {"call", uinteger(1)},
                                         {"args", Value::array({num(1)})}});
  Rec(350000, "post", 1) = Value::object({{"phase", Value::string("post")},
                                          {"call", uinteger(1)},
                                          {"ret", num(0.5)}});
  Rec(400000, "pre", 2);
  Rec(450000, "error", 2);
  Rec(500000, "pre", 3); // never returned
  B.add(EventKind::Watch, Loss, 600000, 0, Ctx).V = num(0.5);
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  auto L = lines(capture([&](std::FILE *F) { exportDftracer(Ts, F); }));
  ASSERT_EQ(L.size(), 10u); // [, 4 metadata, 3 calls, loss, ]
  std::string H = std::to_string(stringHash("node1"));
  EXPECT_EQ(L[5], "{\"id\":4,\"name\":\"torch::mse_loss\",\"cat\":\"api\","
                  "\"pid\":9,\"tid\":9,\"ts\":100,\"dur\":250,\"ph\":\"X\","
                  "\"args\":{\"hhash\":" +
                      H +
                      ",\"level\":0,\"step\":2,\"call\":1,\"call_args\":[1],"
                      "\"ret\":0.5,\"func\":\"train_epoch\"}}");
  EXPECT_NE(L[6].find("\"ts\":400,\"dur\":50,"), std::string::npos) << L[6];
  EXPECT_NE(L[6].find("\"error\":true"), std::string::npos) << L[6];
  EXPECT_NE(L[7].find("\"name\":\"loss\""), std::string::npos) << L[7];
  EXPECT_NE(L[8].find("\"ts\":500,\"dur\":0,"), std::string::npos) << L[8];
  EXPECT_NE(L[8].find("\"unfinished\":true"), std::string::npos) << L[8];

  // CSV has the watched values only: not the calls.
  auto C = lines(capture([&](std::FILE *F) { exportCsv(Ts, F); }));
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[1], "600000,9,0,9,loss,train_epoch,train.cpp,12,2,0.5\r");
}

TEST(ExportTest, CsvQuotesAndFlattensStructuredValues) {
  Builder B(7, 2);
  uint32_t W = B.site(SiteKind::Watch, "user", "note");
  uint32_t Tw = B.site(SiteKind::Watch, "user", "batch");
  const Args *Ctx = B.args({{"epoch", integer(1)}});
  B.add(EventKind::Watch, W, 5, 0, Ctx).V = Value::string("a,\"b\"");
  B.add(EventKind::Watch, Tw, 6, 0, nullptr).V =
      Value::object({{"dtype", Value::string("float32")},
                     {"shape", Value::array({integer(64), integer(10)})},
                     {"mean", num(0.5)}});
  auto L = lines(outputOf(std::move(B), exportCsv));
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0], "time_ns,pid,rank,tid,name,func,file,line,epoch,value,"
                  "value.dtype,value.shape,value.mean\r");
  EXPECT_EQ(L[1],
            "5,7,2,7,note,train_epoch,train.cpp,11,1,\"a,\"\"b\"\"\",,,\r");
  EXPECT_EQ(L[2], "6,7,2,7,batch,train_epoch,train.cpp,12,,,float32,"
                  "\"[64,10]\",0.5\r");
}

TEST(MergeTest, OneBootIsPlacedOnItsMonotonicClock) {
  // A and B ran on one boot; B's wall clock was stepped 5 s ahead before it
  // started (its anchors say realtime - monotonic = 5 s more than A's).
  const int64_t Off = 1700000000000000000, Step = 5000000000;
  Builder A(10, 0), B(11, 1);
  uint32_t Ra = A.site(SiteKind::Region, "compute", "forward");
  uint32_t Rb = B.site(SiteKind::Region, "compute", "forward");
  A.anchor(Off + 1000, 1000);
  A.anchor(Off + 2000, 2000);
  A.anchor(Off + 3000000, 3000000);
  B.anchor(Off + Step + 2000000, 2000000);
  B.anchor(Off + Step + 2500000, 2500000);
  A.add(EventKind::Region, Ra, Off + 1500000, 1000, nullptr);
  B.add(EventKind::Region, Rb, Off + Step + 2100000, 1000, nullptr);
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T)); // out of rank order on purpose
  Ts.push_back(std::move(A.T));
  auto Notes = alignClocks(Ts);
  ASSERT_EQ(Ts.size(), 2u);
  EXPECT_EQ(Ts[0].Process.Rank, 0);
  EXPECT_EQ(Ts[0].Events[0].Ts, Off + 1500000); // A: unchanged
  EXPECT_EQ(Ts[1].Events[0].Ts, Off + 2100000); // B: 5 s back
  EXPECT_EQ(Ts[1].Events[0].Dur, 1000);
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_NE(Notes[0].find("5000 ms ahead"), std::string::npos) << Notes[0];
}

TEST(MergeTest, OtherHostsKeepTheirWallClockAndPidsStayDistinct) {
  const int64_t Off = 1700000000000000000;
  Builder A(10, 0, "boot-a"), B(10, 1, "boot-b"), Old(12, 2, "");
  A.anchor(Off, 1);
  B.anchor(Off + 7, 900);
  Old.anchor(Off, 5);
  uint32_t R = B.site(SiteKind::Region, "compute", "forward");
  B.add(EventKind::Region, R, Off + 100, 10, nullptr);
  std::vector<Trace> Ts;
  Ts.push_back(std::move(A.T));
  Ts.push_back(std::move(B.T));
  Ts.push_back(std::move(Old.T));
  auto Notes = alignClocks(Ts);
  EXPECT_EQ(Ts[1].Events[0].Ts, Off + 100);
  EXPECT_EQ(Ts[0].Process.Pid, 10u);
  EXPECT_EQ(Ts[1].Process.Pid, uint64_t(1) << 22);
  std::string All;
  for (auto &N : Notes)
    All += N + "\n";
  EXPECT_NE(All.find("format 1.0"), std::string::npos) << All;
  EXPECT_NE(All.find("2 hosts or boots"), std::string::npos) << All;
  EXPECT_NE(All.find("shown as pid 4194304"), std::string::npos) << All;
}

TEST(ReportTest, EmbedsDataAndNeverEndsItsScriptEarly) {
  Builder B = sample();
  B.T.Sites[1].Name = "</script><b>x";
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  std::string Error;
  std::string Html = capture([&](std::FILE *F) {
    EXPECT_TRUE(writeReport(Ts, {"t", ""}, F, Error)) << Error;
  });
  EXPECT_EQ(Html.find("/*SONDE_DATA*/"), std::string::npos);
  EXPECT_NE(Html.find("\\u003c/script\\u003e\\u003cb\\u003ex"),
            std::string::npos);
  // One </script> per script element: the data's own was escaped.
  size_t Count = 0;
  for (size_t P = 0; (P = Html.find("</script>", P)) != std::string::npos; ++P)
    ++Count;
  EXPECT_EQ(Count, 2u);
  EXPECT_NE(Html.find("\"watches\":[{\"name\":\"loss\""), std::string::npos);
  // Epoch 3 holds the only steps: they count from 0.
  EXPECT_NE(Html.find("\"points\":[[7,0.25],[7,0.125]]"), std::string::npos);
  EXPECT_NE(Html.find("\"rows\":[{\"epoch\":3,"), std::string::npos);
  EXPECT_EQ(Html.find("http"), Html.find("http://www.w3.org/2000/svg"))
      << "the page loads nothing from the network";

  std::string Out = capture([&](std::FILE *F) {
    EXPECT_FALSE(writeReport(Ts, {"t", "nosuch"}, F, Error));
  });
  EXPECT_NE(Error.find("no region named 'nosuch'"), std::string::npos);
}

TEST(ReportTest, StepsThatRestartEachEpochAreCountedOn) {
  Builder B(5, 0);
  uint32_t R = B.site(SiteKind::Region, "compute", "forward");
  uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
  int64_t T = 1000;
  for (int Epoch = 0; Epoch < 2; ++Epoch)
    for (int Step = 0; Step < 3; ++Step) {
      const Args *A =
          B.args({{"epoch", integer(Epoch)}, {"step", integer(Step)}});
      B.add(EventKind::Region, R, T, 10, A);
      if (Step == 1)
        B.add(EventKind::Watch, Loss, T + 20, 0, A).V = num(Epoch ? 0.5 : 1);
      T += 100;
    }
  std::string Html = reportOf(std::move(B), {"t", ""});
  EXPECT_NE(Html.find("\"x\":\"step (counted across epochs)\""),
            std::string::npos);
  EXPECT_NE(Html.find("\"points\":[[1,1],[4,0.5]]"), std::string::npos);
}

/// The points of the report's first watch line, as [x, value] pairs.
std::vector<std::pair<double, double>> firstLinePoints(const std::string &Html,
                                                       size_t From = 0) {
  std::vector<std::pair<double, double>> Out;
  size_t At = Html.find("\"points\":[", From);
  if (At == std::string::npos)
    return Out;
  const char *P = Html.c_str() + At + 10;
  while (*P == '[' || *P == ',') {
    if (*P == ',')
      ++P;
    if (*P != '[')
      break;
    char *End;
    double X = std::strtod(P + 1, &End);
    double V = std::strtod(End + 1, &End);
    Out.push_back({X, V});
    P = End + 1; // past ']'
  }
  return Out;
}

TEST(ReportTest, ALongLineKeepsEachBucketsMinimumAndMaximum) {
  // 5000 points: buckets of 5, each giving its min and max in their order,
  // so the one spike (at record 2501) survives and nothing is invented.
  Builder B(5, 0);
  uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
  for (int I = 0; I < 5000; ++I)
    B.add(EventKind::Watch, Loss, 1000 + I, 0, nullptr).V =
        num(I == 2501 ? 100.0 : (I % 5) * 0.25);
  std::string Html = reportOf(std::move(B), {"t", ""});
  auto Points = firstLinePoints(Html);
  ASSERT_EQ(Points.size(), 2000u);
  EXPECT_EQ(Points[0], std::make_pair(0.0, 0.0));
  EXPECT_EQ(Points[1], std::make_pair(4.0, 1.0));
  EXPECT_EQ(Points[1000], std::make_pair(2500.0, 0.0));
  EXPECT_EQ(Points[1001], std::make_pair(2501.0, 100.0));
  EXPECT_EQ(Points.back(), std::make_pair(4999.0, 1.0));
}

TEST(ReportTest, ManyProcessesShareThePagesPointCap) {
  // 160 processes with 2000 points each: 200000 points on the page at most,
  // 1250 per line, so each line is bucketed (625 buckets of 4 points).
  std::vector<Trace> Ts;
  for (int P = 0; P < 160; ++P) {
    Builder B(100 + P, P);
    uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
    for (int I = 0; I < 2000; ++I)
      B.add(EventKind::Watch, Loss, 1000 + I, 0, nullptr).V = num(I % 4);
    Ts.push_back(std::move(B.T));
  }
  std::string Error;
  std::string Html = capture([&](std::FILE *F) {
    EXPECT_TRUE(writeReport(Ts, {"t", ""}, F, Error)) << Error;
  });
  size_t Lines = 0, At = 0;
  while ((At = Html.find("\"points\":[", At)) != std::string::npos) {
    auto Points = firstLinePoints(Html, At);
    EXPECT_EQ(Points.size(), 1000u) << "line " << Lines;
    ++Lines;
    ++At;
  }
  EXPECT_EQ(Lines, 160u);
}

TEST(ReportTest, TheStepIsTheMiddleInstanceOfTheRegionThatHoldsOthers) {
  // Five `step` regions, each holding a forward and a backward, among
  // more frequent leaf regions: the step is chosen, its third instance.
  Builder B(5, 0);
  uint32_t Step = B.site(SiteKind::Region, "pipeline", "step");
  uint32_t Fwd = B.site(SiteKind::Region, "compute", "forward");
  uint32_t Bwd = B.site(SiteKind::Region, "compute", "backward");
  uint32_t Log = B.site(SiteKind::Region, "user", "log");
  int64_t T = 1000;
  for (int I = 0; I < 5; ++I) {
    B.add(EventKind::Region, Step, T, 100, nullptr, 0);
    B.add(EventKind::Region, Fwd, T + 10, 30, nullptr, 1);
    B.add(EventKind::Region, Bwd, T + 50, 40, nullptr, 1);
    for (int L = 0; L < 3; ++L)
      B.add(EventKind::Region, Log, T + 100 + L * 10, 5, nullptr, 0);
    T += 200;
  }
  std::string Html = reportOf(std::move(B), {"t", ""});
  EXPECT_NE(Html.find("\"step\":{\"cat\":\"pipeline\",\"name\":\"step\","
                      "\"pid\":5,\"start_ns\":1400,\"dur_ns\":100"),
            std::string::npos)
      << Html;
  // Its spans: itself and its two children; self time: 100 - 30 - 40.
  EXPECT_NE(Html.find("\"name\":\"step\",\"count\":5,\"total_ns\":500,"
                      "\"self_ns\":150"),
            std::string::npos);
}

// --- exports valid in every case (issue 12 item 8) -------------------------

/// A trace whose times are real ones (ns since the Unix epoch, above 2^53)
/// and whose site has a 64-bit stable id.
Builder realTimes() {
  Builder B(100, 0);
  uint32_t R = B.site(SiteKind::Region, "compute", "forward");
  B.T.Sites[R].StableId = 0xae53c4f9e1d2b3a7;
  B.T.Process.StartNs = 1795692668227000000;
  B.T.Process.EndNs = 1795692668228000000;
  // Back to back: the second starts when the first ends.
  B.add(EventKind::Region, R, 1795692668227223819, 1001, nullptr);
  B.add(EventKind::Region, R, 1795692668227224820, 1001, nullptr);
  return B;
}

/// The number after `"Key":` in `Line`, read as JavaScript and jq read it:
/// a double.
double jsonNumber(const std::string &Line, const std::string &Key,
                  size_t From = 0) {
  size_t At = Line.find("\"" + Key + "\":", From);
  EXPECT_NE(At, std::string::npos) << Key << " in " << Line;
  return At == std::string::npos
             ? NAN
             : std::strtod(Line.c_str() + At + Key.size() + 3, nullptr);
}

TEST(ExportValidTest, InvalidUtf8BecomesTheReplacementCharacter) {
  Builder B(7, 0);
  uint32_t W = B.site(SiteKind::Watch, "user", "word");
  // Latin-1 "naïve", valid UTF-8 "é", a cut 3-byte sequence, an overlong
  // '/', a UTF-16 surrogate, a byte above U+10FFFF.
  for (const char *S : {"na\xefve", "caf\xc3\xa9", "x\xe2\x82", "\xc0\xaf",
                        "\xed\xa0\x80", "\xf5\x80\x80\x80"})
    B.add(EventKind::Watch, W, 5, 0, nullptr).V = Value::string(S);
  B.T.Sites[W].File = "src/\xff.cpp";
  auto L = lines(outputOf(std::move(B), exportJsonl));
  ASSERT_EQ(L.size(), 8u);
  EXPECT_NE(L[1].find("\"value\":\"na\\ufffdve\""), std::string::npos) << L[1];
  EXPECT_NE(L[1].find("\"file\":\"src/\\ufffd.cpp\""), std::string::npos);
  EXPECT_NE(L[2].find("\"value\":\"caf\xc3\xa9\""), std::string::npos) << L[2];
  EXPECT_NE(L[3].find("\"value\":\"x\\ufffd\\ufffd\""), std::string::npos);
  EXPECT_NE(L[4].find("\"value\":\"\\ufffd\\ufffd\""), std::string::npos);
  EXPECT_NE(L[5].find("\"value\":\"\\ufffd\\ufffd\\ufffd\""),
            std::string::npos);
  EXPECT_NE(L[6].find("\"value\":\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
            std::string::npos);
  // No other byte above 0x7f than the valid "é".
  for (const std::string &Line : L)
    for (size_t I = 0; I < Line.size(); ++I)
      if (static_cast<unsigned char>(Line[I]) >= 0x80) {
        EXPECT_EQ(Line.compare(I, 2, "\xc3\xa9"), 0) << Line;
        ++I;
      }
}

TEST(ExportValidTest, ReportDataCannotOpenACommentOrEndItsScript) {
  Builder B = sample();
  B.T.Sites[1].Name = "<!--<script>";
  B.T.Sites[2].Name = "a&b</script>";
  std::string Html = reportOf(std::move(B), {"<!--", ""});
  size_t Begin = Html.find("<script id=\"sonde-data\"");
  ASSERT_NE(Begin, std::string::npos);
  Begin = Html.find('>', Begin) + 1;
  std::string Data = Html.substr(Begin, Html.find("</script>", Begin) - Begin);
  EXPECT_EQ(Data.find_first_of("<>&"), std::string::npos) << Data;
  EXPECT_NE(Data.find("\"\\u003c!--\\u003cscript\\u003e\""), std::string::npos);
  EXPECT_NE(Data.find("\"a\\u0026b\\u003c/script\\u003e\""), std::string::npos);
  EXPECT_NE(Data.find("\"title\":\"\\u003c!--\""), std::string::npos);
}

TEST(ExportValidTest, JsonlTimesAndSiteIdsAreExactInADouble) {
  auto L = lines(outputOf(realTimes(), exportJsonl));
  ASSERT_EQ(L.size(), 4u);
  EXPECT_NE(L[0].find("\"ts\":0,\"origin_unix_ns\":\"1795692668227000000\""),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[1].find("\"ts\":223819,\"dur\":1001,"), std::string::npos)
      << L[1];
  EXPECT_NE(L[1].find("\"site\":1,\"site_id\":\"ae53c4f9e1d2b3a7\","),
            std::string::npos)
      << L[1];
  EXPECT_NE(L[3].find("\"ts\":1000000,"), std::string::npos) << L[3];
  // Every integer survives a trip through a double.
  for (const std::string &Line : L)
    for (const char *K : {"ts", "dur", "site", "pid"})
      if (Line.find(std::string("\"") + K + "\":") != std::string::npos &&
          Line.find(std::string("\"") + K + "\":null") == std::string::npos)
        EXPECT_LT(jsonNumber(Line, K), 9007199254740992.0) << K << Line;
}

TEST(ExportValidTest, ChromeTimesAreRelativeSoBackToBackRegionsDoNotOverlap) {
  std::string Out = outputOf(realTimes(), exportChrome);
  EXPECT_EQ(Out.rfind("{\"displayTimeUnit\":\"ms\",\"otherData\":{"
                      "\"origin_unix_ns\":\"1795692668227000000\",",
                      0),
            0u)
      << Out;
  auto L = lines(Out);
  std::vector<std::string> Xs;
  for (const std::string &Line : L) {
    if (Line.find("\"ph\":\"M\"") != std::string::npos)
      EXPECT_NE(Line.find("\"cat\":\"__metadata\""), std::string::npos) << Line;
    if (Line.find("\"ph\":\"X\"") != std::string::npos)
      Xs.push_back(Line);
  }
  ASSERT_EQ(Xs.size(), 2u);
  EXPECT_NE(Xs[0].find("\"ts\":223.819,"), std::string::npos) << Xs[0];
  // As a trace viewer reads them: doubles of microseconds, made
  // nanoseconds. Each is the recorded time, and the first region ends
  // exactly where the second starts.
  auto Ns = [](double Us) { return std::llround(Us * 1000); };
  int64_t Origin = 1795692668227000000;
  EXPECT_EQ(Origin + Ns(jsonNumber(Xs[0], "ts")), 1795692668227223819);
  EXPECT_EQ(Origin + Ns(jsonNumber(Xs[1], "ts")), 1795692668227224820);
  EXPECT_EQ(Ns(jsonNumber(Xs[0], "ts")) + Ns(jsonNumber(Xs[0], "dur")),
            Ns(jsonNumber(Xs[1], "ts")));
}

TEST(ExportValidTest, MergedTimesCountFromTheEarliestProcess) {
  Builder A = realTimes(), B = realTimes();
  B.T.Process.Pid = 101;
  B.T.Process.Rank = 1;
  B.T.Process.StartNs -= 5000; // started 5 us before A
  std::vector<Trace> Ts;
  Ts.push_back(std::move(A.T));
  Ts.push_back(std::move(B.T));
  alignClocks(Ts); // format 1.0 traces: placed by their wall clocks
  auto L = lines(capture([&](std::FILE *F) { exportJsonl(Ts, F); }));
  ASSERT_EQ(L.size(), 8u);
  EXPECT_NE(L[0].find("\"ts\":5000,\"origin_unix_ns\":\"1795692668226995000\""),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[4].find("\"ts\":0,\"origin_unix_ns\":\"1795692668226995000\""),
            std::string::npos)
      << L[4];
  EXPECT_NE(L[1].find("\"ts\":228819,"), std::string::npos) << L[1];
}

// --- scalar tensor watches (issue 19 item 6) ---------------------------------

/// A 0-dim tensor watched with `summary: value`, as libsonde_torch records
/// it.
Value scalarTensor(double V) {
  return Value::object({{"dtype", Value::string("float32")},
                        {"device", Value::string("cpu")},
                        {"shape", Value::array({})},
                        {"numel", integer(1)},
                        {"value", num(V)}});
}

Builder tensorLosses() {
  Builder B(5, 0);
  uint32_t R = B.site(SiteKind::Region, "compute", "forward");
  uint32_t Loss = B.site(SiteKind::Watch, "user", "loss");
  int64_t T = 1000;
  for (int Epoch = 0; Epoch < 2; ++Epoch)
    for (int Step = 0; Step < 2; ++Step) {
      const Args *A =
          B.args({{"epoch", integer(Epoch)}, {"step", integer(Step)}});
      B.add(EventKind::Region, R, T, 10, A);
      B.add(EventKind::Watch, Loss, T + 20, 0, A).V =
          scalarTensor(8.75 - Epoch - 0.5 * Step);
      T += 100;
    }
  return B;
}

TEST(ScalarTensorTest, SummaryShowsTheValue) {
  std::string Text =
      outputOf(tensorLosses(), [](const std::vector<Trace> &Ts, std::FILE *F) {
        printSummary(Ts, F);
      });
  // The first lines say the loss first -> last; the watch table has its row.
  EXPECT_NE(Text.find("\nloss       8.75 -> 7.25 (4 records)\n"),
            std::string::npos)
      << Text;
  size_t Row = Text.find("\nloss ", Text.find("\nwatch "));
  ASSERT_NE(Row, std::string::npos) << Text;
  std::string Line = Text.substr(Row + 1, Text.find('\n', Row + 1) - Row - 1);
  std::istringstream In(Line);
  std::vector<std::string> F;
  for (std::string W; In >> W;)
    F.push_back(W);
  EXPECT_EQ(F, (std::vector<std::string>{"loss", "train_epoch", "4", "8.75",
                                         "7.25", "7.25", "8.75"}))
      << Line;
  std::string Json =
      outputOf(tensorLosses(), [](const std::vector<Trace> &Ts, std::FILE *F) {
        printSummaryJson(Ts, F);
      });
  EXPECT_NE(Json.find("\"min\":7.25,\"max\":8.75"), std::string::npos) << Json;
}

TEST(ScalarTensorTest, ReportPlotsItAndPutsItInTheEpochTable) {
  std::string Html = reportOf(tensorLosses(), {"t", ""});
  EXPECT_NE(Html.find("\"watches\":[{\"name\":\"loss\",\"func\":"),
            std::string::npos);
  EXPECT_NE(Html.find("\"points\":[[0,8.75],[1,8.25],[2,7.75],[3,7.25]]"),
            std::string::npos)
      << Html.substr(Html.find("\"watches\""), 300);
  EXPECT_NE(Html.find("\"watches\":[\"loss\"],\"rows\""), std::string::npos);
  EXPECT_NE(Html.find("\"last\":{\"loss\":8.25}"), std::string::npos);
  EXPECT_NE(Html.find("\"last\":{\"loss\":7.25}"), std::string::npos);
}

TEST(ScalarTensorTest, ChromeMakesItACounter) {
  auto L = lines(outputOf(tensorLosses(), exportChrome));
  size_t Counters = 0;
  for (const std::string &Line : L)
    if (Line.find("\"ph\":\"C\",\"name\":\"loss\"") != std::string::npos) {
      ++Counters;
      EXPECT_NE(Line.find("\"args\":{\"loss\":"), std::string::npos) << Line;
    }
  EXPECT_EQ(Counters, 4u);
}

// --- format versions ---------------------------------------------------------

void putStr(std::string &B, const std::string &S) {
  char V[10];
  B.append(V, sonde::format::putVarint(V, S.size()) - V);
  B += S;
}
void putNum(std::string &B, uint64_t N) {
  char V[10];
  B.append(V, sonde::format::putVarint(V, N) - V);
}
void block(std::string &File, sonde::format::Block Type, const std::string &P) {
  File.push_back(static_cast<char>(Type));
  for (int I = 0; I < 4; ++I)
    File.push_back(static_cast<char>((P.size() >> (8 * I)) & 0xff));
  File += P;
}

std::string fileOfVersion(uint16_t Minor, bool WithBoot) {
  using sonde::format::Block;
  std::string F(sonde::format::Magic, 8);
  F += std::string{1, 0, static_cast<char>(Minor), 0, 0, 0, 0, 0};
  std::string P;
  putNum(P, 42);
  putNum(P, 1);
  putNum(P, 0);
  putStr(P, "host");
  putStr(P, "prog");
  putNum(P, 1700000000000000000);
  if (WithBoot)
    putStr(P, "0f0e-boot");
  block(F, Block::Process, P);
  P.clear();
  putNum(P, 1000);
  putNum(P, 1700000000000000000);
  putNum(P, 77);
  block(F, Block::Clock, P);
  P.clear();
  putStr(P, "exit");
  putNum(P, 0);
  block(F, Block::End, P);
  return F;
}

TEST(FormatTest, ReadsVersionOneZeroAndOneOne) {
  char Dir[] = "/tmp/sonde-format-XXXXXX";
  ASSERT_TRUE(mkdtemp(Dir));
  for (int Minor : {0, 1}) {
    std::string Path =
        std::string(Dir) + "/v" + std::to_string(Minor) + ".sonde";
    std::ofstream(Path, std::ios::binary) << fileOfVersion(Minor, Minor == 1);
    Trace T;
    std::string Error;
    ASSERT_TRUE(readTrace(Path, T, Error)) << Error;
    EXPECT_EQ(T.VersionMinor, Minor);
    EXPECT_TRUE(T.Complete && T.Process.Ended) << T.Problem;
    EXPECT_EQ(T.Process.Program, "prog");
    EXPECT_EQ(T.Process.BootId, Minor == 1 ? "0f0e-boot" : "");
    ASSERT_EQ(T.Anchors.size(), 1u);
    EXPECT_EQ(T.Anchors[0].MonoNs, 77);
    std::remove(Path.c_str());
  }
  rmdir(Dir);
}

TEST(FormatTest, ARealTraceRecordsTheBootId) {
  char Dir[] = "/tmp/sonde-boot-XXXXXX";
  ASSERT_TRUE(mkdtemp(Dir));
  std::string Cmd = std::string("SONDE_OUTPUT=") + Dir + " " +
                    SONDE_EXIT_PATHS + " return 10 > /dev/null";
  ASSERT_EQ(std::system(Cmd.c_str()), 0);
  std::vector<std::string> Files;
  std::string Error;
  ASSERT_TRUE(expandInputs({Dir}, Files, Error)) << Error;
  ASSERT_EQ(Files.size(), 1u);
  Trace T;
  ASSERT_TRUE(readTrace(Files[0], T, Error)) << Error;
  std::string Boot;
  std::getline(std::ifstream("/proc/sys/kernel/random/boot_id"), Boot);
  EXPECT_EQ(T.VersionMinor, sonde::format::Minor);
  EXPECT_EQ(T.Process.BootId, Boot);
  ASSERT_GE(T.Anchors.size(), 2u);
  for (const ClockAnchor &A : T.Anchors)
    EXPECT_GT(A.MonoNs, 0);
  std::remove(Files[0].c_str());
  rmdir(Dir);
}

} // namespace
