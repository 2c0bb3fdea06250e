//===- CommTest.cpp - c10d collectives as libsonde_torch records them -----===//
//
// Two ranks of a real c10d::ProcessGroupGloo in one process (a thread each,
// a FileStore between them) run every collective Gloo has and a send/recv;
// the test reads this process's trace back and checks one comm.* region
// per operation and rank, in DFTracer's category, with its payload. It also
// pins down what libtorch 1.13 reports (docs/distributed.md, "What is
// recorded"): `gloo:<op>` ranges in USER_SCOPE, begun and ended on Gloo's
// worker thread, not the caller's. One libtorch translation unit.
//
//===----------------------------------------------------------------------===//

#include "sonde/torch.h"
#include "sonde/trace.h"

#include <ATen/record_function.h>
#include <gtest/gtest.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using sonde::trace::Event;
using sonde::trace::EventKind;
using sonde::trace::Trace;

namespace {

constexpr int Ranks = 2;

/// The arg `Key` of an event, or null.
const sonde::trace::Value *arg(const Event &E, const char *Key) {
  for (const auto &KV : *E.A)
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
}

/// What one rank does: every collective Gloo 1.13 has, and a send/recv.
void collectives(c10d::ProcessGroup &Pg) {
  int Rank = Pg.getRank();
  std::vector<at::Tensor> F{torch::ones({1000})};
  Pg.allreduce(F)->wait();
  EXPECT_EQ(F[0][0].item<float>(), Ranks);
  std::vector<at::Tensor> D{torch::full({10}, Rank, torch::kFloat64)};
  Pg.broadcast(D)->wait();
  EXPECT_EQ(D[0][0].item<double>(), 0);
  std::vector<at::Tensor> R{torch::ones({8})};
  Pg.reduce(R)->wait();
  std::vector<std::vector<at::Tensor>> All{
      {torch::zeros({4}), torch::zeros({4})}};
  std::vector<at::Tensor> Mine{torch::full({4}, static_cast<float>(Rank))};
  Pg.allgather(All, Mine)->wait();
  EXPECT_EQ(All[0][1][0].item<float>(), 1);
  std::vector<std::vector<at::Tensor>> Gathered;
  if (Rank == 0)
    Gathered = {{torch::zeros({4}), torch::zeros({4})}};
  Pg.gather(Gathered, Mine)->wait();
  std::vector<at::Tensor> Piece{torch::zeros({4})};
  std::vector<std::vector<at::Tensor>> Pieces;
  if (Rank == 0)
    Pieces = {{torch::full({4}, 7.0f), torch::full({4}, 9.0f)}};
  Pg.scatter(Piece, Pieces)->wait();
  EXPECT_EQ(Piece[0][0].item<float>(), Rank == 0 ? 7 : 9);
  at::Tensor Out = torch::zeros({4}), In = torch::full({4}, float(Rank));
  std::vector<int64_t> EqualSplits;
  Pg.alltoall_base(Out, In, EqualSplits, EqualSplits)->wait();
  EXPECT_EQ(Out[3].item<float>(), 1);
  std::vector<at::Tensor> P2p{torch::arange(5, torch::kInt64)};
  if (Rank == 0)
    Pg.send(P2p, 1, /*tag=*/3)->wait();
  else
    Pg.recv(P2p, 0, /*tag=*/3)->wait();
  Pg.barrier()->wait();
}

/// Runs `collectives` on Ranks ranks of a Gloo group, a thread each.
void runGroup(const std::string &StorePath) {
  std::vector<std::thread> Threads;
  Threads.reserve(Ranks);
  for (int Rank = 0; Rank < Ranks; ++Rank)
    Threads.emplace_back([&StorePath, Rank] {
      auto Store = c10::make_intrusive<c10d::FileStore>(StorePath, Ranks);
      auto Opts = c10d::ProcessGroupGloo::Options::create();
      Opts->devices.push_back(
          c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      c10d::ProcessGroupGloo Pg(Store, Rank, Ranks, Opts);
      try {
        collectives(Pg);
      } catch (const std::exception &E) {
        ADD_FAILURE() << "rank " << Rank << ": " << E.what();
      }
    });
  for (std::thread &T : Threads)
    T.join();
}

class CommTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ASSERT_NE(mkdtemp(Dir), nullptr);
    setenv("SONDE_OUTPUT", Dir, 1);
  }
  static std::string storePath(const char *Name) {
    return std::string(Dir) + "/" + Name;
  }
  static char Dir[];
};
char CommTest::Dir[] = "/tmp/sonde-comm-test-XXXXXX";

TEST_F(CommTest, EveryOperationIsACommRegionWithItsPayload) {
  runGroup(storePath("all"));
  sonde::flush();
  Trace T;
  std::string Error;
  ASSERT_TRUE(sonde::trace::readTrace(sonde::traceFile(), T, Error, true))
      << Error;
  struct Want {
    const char *Name, *Category;
    int64_t Bytes, Numel;
    const char *Dtype;
  };
  const Want Wants[] = {
      {"gloo:all_reduce", "comm.all_reduce", 4000, 1000, "float32"},
      {"gloo:broadcast", "comm.bcast", 80, 10, "float64"},
      {"gloo:reduce", "comm.reduce", 32, 8, "float32"},
      {"gloo:all_gather", "comm.all_gather", 16, 4, "float32"},
      {"gloo:gather", "comm.gather", 16, 4, "float32"},
      // A scatter's inputs are the root's list (two tensors of 4), the other
      // ranks give none: checked below.
      {"gloo:scatter", "comm.scatter", -1, -1, ""},
      {"gloo:all_to_all", "comm.all_to_all", 16, 4, "float32"},
      {"gloo:send", "comm.send", 40, 5, "int64"},
      {"gloo:recv", "comm.receive", 40, 5, "int64"},
      {"gloo:barrier", "comm.barrier", 0, 0, ""},
  };
  std::map<std::string, int> Count;
  std::multiset<int64_t> ScatterBytes;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Region)
      continue;
    const auto &S = T.site(E.Site);
    if (S.Name.rfind("gloo:", 0) != 0)
      continue;
    ++Count[S.Name];
    if (S.Name == "gloo:scatter")
      if (const sonde::trace::Value *Bytes = arg(E, "bytes"))
        ScatterBytes.insert(static_cast<int64_t>(Bytes->number()));
    for (const Want &W : Wants) {
      if (S.Name != W.Name || W.Bytes < 0)
        continue;
      EXPECT_EQ(S.Category, W.Category) << W.Name;
      const sonde::trace::Value *Bytes = arg(E, "bytes");
      const sonde::trace::Value *Numel = arg(E, "numel");
      const sonde::trace::Value *Dtype = arg(E, "dtype");
      ASSERT_TRUE(Bytes && Numel && Dtype) << W.Name;
      EXPECT_EQ(Bytes->number(), W.Bytes) << W.Name;
      EXPECT_EQ(Numel->number(), W.Numel) << W.Name;
      EXPECT_EQ(Dtype->str(), W.Dtype) << W.Name;
    }
  }
  // The send and the recv once in the group; the rest once per rank.
  for (const Want &W : Wants) {
    bool Once = std::string(W.Name) == "gloo:send" ||
                std::string(W.Name) == "gloo:recv";
    EXPECT_EQ(Count[W.Name], Once ? 1 : Ranks) << W.Name;
  }
  EXPECT_EQ(Count.size(), sizeof Wants / sizeof *Wants);
  EXPECT_EQ(ScatterBytes, (std::multiset<int64_t>{0, 32}));
}

// After the test above: the regions sonde records of these collectives
// are not counted there.
// What libtorch reports, seen by a callback of our own on every scope.
struct Seen {
  std::mutex Lock;
  std::map<std::string, std::set<std::thread::id>> StartThreads, EndThreads;
  std::map<std::string, int> Scope;
};
Seen *TheSeen = nullptr;

TEST_F(CommTest, GlooReportsEachOperationOnItsWorkerThread) {
  Seen S;
  TheSeen = &S;
  auto Handle = at::addGlobalCallback(at::RecordFunctionCallback(
      [](const at::RecordFunction &Fn) -> std::unique_ptr<at::ObserverContext> {
        std::string Name = Fn.name();
        if (Name.rfind("gloo:", 0) == 0) {
          std::lock_guard<std::mutex> G(TheSeen->Lock);
          TheSeen->StartThreads[Name].insert(std::this_thread::get_id());
          TheSeen->Scope[Name] = static_cast<int>(Fn.scope());
        }
        return nullptr;
      },
      [](const at::RecordFunction &Fn, at::ObserverContext *) {
        std::string Name = Fn.name();
        if (Name.rfind("gloo:", 0) == 0) {
          std::lock_guard<std::mutex> G(TheSeen->Lock);
          TheSeen->EndThreads[Name].insert(std::this_thread::get_id());
        }
      }));
  std::set<std::thread::id> Callers;
  {
    // The callers are these threads: record them from inside.
    std::vector<std::thread> Threads;
    Threads.reserve(Ranks);
    std::mutex L;
    for (int Rank = 0; Rank < Ranks; ++Rank)
      Threads.emplace_back([&, Rank] {
        {
          std::lock_guard<std::mutex> G(L);
          Callers.insert(std::this_thread::get_id());
        }
        auto Store =
            c10::make_intrusive<c10d::FileStore>(storePath("seen"), Ranks);
        auto Opts = c10d::ProcessGroupGloo::Options::create();
        Opts->devices.push_back(
            c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        c10d::ProcessGroupGloo Pg(Store, Rank, Ranks, Opts);
        std::vector<at::Tensor> F{torch::ones({4})};
        Pg.allreduce(F)->wait();
        Pg.barrier()->wait();
      });
    for (std::thread &T : Threads)
      T.join();
  }
  at::removeCallback(Handle);
  for (const char *Name : {"gloo:all_reduce", "gloo:barrier"}) {
    ASSERT_EQ(S.StartThreads.count(Name), 1u) << Name;
    EXPECT_EQ(S.Scope[Name], static_cast<int>(at::RecordScope::USER_SCOPE));
    for (const std::thread::id &T : S.StartThreads[Name])
      EXPECT_EQ(Callers.count(T), 0u) << Name << " began on a caller";
    for (const std::thread::id &T : S.EndThreads[Name])
      EXPECT_EQ(Callers.count(T), 0u) << Name << " ended on a caller";
  }
}

} // namespace
