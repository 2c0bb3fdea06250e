//===- ExportTest.cpp - The tool's exports, merge and report --------------===//
//
// Traces built in memory (exact times, args and values), run through each
// exporter into memory, and checked field by field; format 1.0 and 1.1
// files written byte by byte and read back; a real trace's boot id.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "Export.h"
#include "Format.h"

#include <gtest/gtest.h>

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
  std::vector<Trace> Ts;
  Ts.push_back(std::move(sample().T));
  auto L = lines(capture([&](std::FILE *F) { exportDftracer(Ts, F); }));
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
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  auto L = lines(capture([&](std::FILE *F) { exportTraincheck(Ts, F); }));
  ASSERT_EQ(L.size(), 5u); // pre, var, post, var, pre (unfinished: no post)
  EXPECT_EQ(L[0].rfind("{\"func_call_id\":\"100_r0\",\"thread_id\":100,"
                       "\"process_id\":100,\"meta_vars\":{\"epoch\":3,"
                       "\"step\":7},\"type\":\"function_call (pre)\","
                       "\"function\":\"forward\"",
                       0),
            0u)
      << L[0];
  EXPECT_NE(L[0].find("\"args\":{\"bs\":64},\"kwargs\":{}"), std::string::npos);
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
  uint32_t Api = B.site(static_cast<SiteKind>(7), "api",
                        "torch::optim::Optimizer::step", {"step"});
  uint32_t State = B.site(static_cast<SiteKind>(6), "compute", "model");
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
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  auto L = lines(capture([&](std::FILE *F) { exportTraincheck(Ts, F); }));
  ASSERT_EQ(L.size(), 5u);
  std::string Id = "\"func_call_id\":\"9_" + std::to_string(Call) + "\"";
  EXPECT_EQ(L[0].rfind("{" + Id +
                           ",\"thread_id\":9,\"process_id\":9,"
                           "\"meta_vars\":{\"epoch\":1,\"step\":6},\"type\":"
                           "\"function_call (pre)\",\"function\":"
                           "\"torch::optim::Optimizer::step\"",
                       0),
            0u)
      << L[0];
  EXPECT_NE(L[0].find("\"args\":{\"0\":{\"torch.Tensor\":{\"dtype\":"
                      "\"float32\",\"shape\":[10],\"mean\":0.5}},\"1\":3},"
                      "\"kwargs\":{}"),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[1].find(Id), std::string::npos);
  EXPECT_NE(L[1].find("\"type\":\"function_call (post)\""), std::string::npos);
  EXPECT_NE(L[1].find("\"return_values\":2"), std::string::npos);
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

TEST(ExportTest, DftracerJoinsAnApiCallsPreAndPost) {
  Builder B(9, 0);
  uint32_t Api =
      B.site(static_cast<SiteKind>(7), "api", "torch::mse_loss", {"self"});
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
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  auto L = lines(capture([&](std::FILE *F) { exportCsv(Ts, F); }));
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
  EXPECT_NE(Html.find("<\\/script><b>x"), std::string::npos);
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
  std::vector<Trace> Ts;
  Ts.push_back(std::move(B.T));
  std::string Error;
  std::string Html = capture([&](std::FILE *F) {
    EXPECT_TRUE(writeReport(Ts, {"t", ""}, F, Error)) << Error;
  });
  EXPECT_NE(Html.find("\"x\":\"step (counted across epochs)\""),
            std::string::npos);
  EXPECT_NE(Html.find("\"points\":[[1,1],[4,0.5]]"), std::string::npos);
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
