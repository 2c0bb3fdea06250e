//===- RanksTest.cpp - The per-rank table of summary and report -----------===//
//
// Ranks built in memory with exact times: the step found, each rank's
// step, computation, communication, wait and overlap, the rank the others
// waited for, and the text and JSON that say it.
//
//===----------------------------------------------------------------------===//

#include "summary/Ranks.h"

#include "Json.h"
#include "TextOut.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace sonde::trace;

namespace {

/// One rank's trace: a training thread and a backend thread.
struct RankTrace {
  Trace T;
  uint32_t Step, Forward, Wait, Gloo, Epoch;
  explicit RankTrace(int64_t Rank) {
    T.Path = "r" + std::to_string(Rank) + ".sonde";
    T.Process.Pid = 100 + static_cast<uint64_t>(Rank);
    T.Process.Rank = Rank;
    T.ArgSets.push_back(std::make_unique<Args>());
    T.Sites.resize(1);
    T.Threads.push_back({0, 1, "main"});
    T.Threads.push_back({1, 2, "gloo"});
    Epoch = site(SiteKind::Loop, "pipeline.epoch", "epoch.block");
    Step = site(SiteKind::Loop, "dataloader.fetch", "fetch.block");
    Forward = site(SiteKind::Region, "compute.forward", "forward");
    Wait = site(SiteKind::Region, "comm", "comm.wait");
    Gloo = site(SiteKind::Region, "comm.all_reduce", "gloo:all_reduce");
  }
  uint32_t site(SiteKind K, const char *Cat, const char *Name) {
    SiteInfo S;
    S.Id = static_cast<uint32_t>(T.Sites.size());
    S.Kind = K;
    S.Category = Cat;
    S.Name = Name;
    T.Sites.push_back(S);
    return S.Id;
  }
  void add(uint32_t Site, int64_t Ts, int64_t Dur, uint32_t Thread = 0) {
    Event E;
    E.Site = Site;
    E.Ts = Ts;
    E.Dur = Dur;
    E.Thread = Thread;
    E.A = T.ArgSets.front().get();
    T.Events.push_back(E);
  }
  /// Three steps: each a body of `Body` ns (a 30 ns forward, then a wait
  /// until the body's end, while the backend runs from `GlooAt`), then
  /// `Fetch` ns of loading before the next.
  void steps(int64_t Body, int64_t Fetch, int64_t GlooAt) {
    add(Epoch, 0, 3 * (Body + Fetch));
    for (int64_t K = 0, S = 0; K < 3; ++K, S += Body + Fetch) {
      add(Step, S, Body);
      add(Forward, S, 30);
      if (GlooAt < 30)
        add(Gloo, S + GlooAt, Body - GlooAt, 1);
      add(Wait, S + 30, Body - 30);
      if (GlooAt >= 30)
        add(Gloo, S + GlooAt, Body - GlooAt, 1);
    }
  }
};

std::vector<Trace> job() {
  std::vector<Trace> Ts;
  RankTrace R0(0), R1(1), R2(2);
  R0.steps(100, 10, 40); // waits 70 a step for rank 1
  R1.steps(40, 80, 30);  // the straggler: a slow fetch, a short wait
  R2.steps(100, 10, 20); // as rank 0, its backend starting in the forward
  Ts.push_back(std::move(R0.T));
  Ts.push_back(std::move(R1.T));
  Ts.push_back(std::move(R2.T));
  return Ts;
}

TEST(RanksTest, NamesTheRankTheOthersWaitedFor) {
  std::vector<Trace> Ts = job();
  auto Table = ranks::rankTable(Ts);
  ASSERT_TRUE(Table);
  EXPECT_EQ(Table->Step, "dataloader.fetch/fetch.block");
  ASSERT_EQ(Table->Rows.size(), 3u);
  const ranks::RankRow &A = Table->Rows[0], &B = Table->Rows[1],
                       &C = Table->Rows[2];
  // Rank 0: window 0..320 (3 steps of 110, the last without its fetch).
  EXPECT_EQ(A.Steps, 3u);
  EXPECT_EQ(A.WindowNs, 320);
  EXPECT_EQ(A.ComputeNs, 90);
  EXPECT_EQ(A.CommNs, 210);
  EXPECT_EQ(A.WaitNs, 210);
  EXPECT_EQ(A.OverlapNs, 0);
  EXPECT_EQ(A.busyNs(), (320 - 210) / 3);
  // Rank 1: window 0..280, waits 10 a step.
  EXPECT_EQ(B.WindowNs, 280);
  EXPECT_EQ(B.WaitNs, 30);
  EXPECT_EQ(B.busyNs(), (280 - 30) / 3);
  // Rank 2: Gloo from 20 in each step: 10 of its 80 under the forward.
  EXPECT_EQ(C.CommNs, 240);
  EXPECT_EQ(C.WaitNs, 210);
  EXPECT_EQ(C.OverlapNs, 30);
  EXPECT_EQ(Table->Slowest, 1);
  EXPECT_NEAR(Table->Imbalance, 83.0 / 36.0, 1e-9);
}

TEST(RanksTest, OneRankHasNoTable) {
  std::vector<Trace> Ts = job();
  Ts.resize(1);
  EXPECT_FALSE(ranks::rankTable(Ts));
  // Two files of one rank (a forked worker) are one rank too.
  std::vector<Trace> Two = job();
  Two[1].Process.Rank = 0;
  Two[2].Process.Rank = 0;
  EXPECT_FALSE(ranks::rankTable(Two));
}

std::string text(const std::optional<ranks::RankTable> &T, bool Json) {
  char *Buf = nullptr;
  size_t Len = 0;
  std::FILE *F = open_memstream(&Buf, &Len);
  {
    TextOut Out(F);
    if (Json) {
      JsonOut J(Out);
      J.open();
      ranks::writeRanksJson(J, T);
      J.close();
    } else {
      ranks::printRanks(Out, T);
    }
  }
  std::fclose(F);
  std::string S(Buf, Len);
  std::free(Buf);
  return S;
}

TEST(RanksTest, TextAndJsonSayIt) {
  std::vector<Trace> Ts = job();
  auto Table = ranks::rankTable(Ts);
  std::string Text = text(Table, false);
  EXPECT_NE(Text.find("ranks: 3 (times per step of "
                      "dataloader.fetch/fetch.block)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("slowest rank: 1 (busy 83 ns a step, 2.31x the median "
                      "rank)"),
            std::string::npos)
      << Text;
  std::string Json = text(Table, true);
  EXPECT_NE(Json.find("\"ranks\":{\"step\":\"dataloader.fetch/fetch.block\","
                      "\"slowest_rank\":1,"),
            std::string::npos)
      << Json;
  EXPECT_NE(Json.find("{\"rank\":2,\"processes\":1,\"steps\":3,\"window_ns\":"
                      "320,\"step_ns\":106,\"compute_ns\":90,\"comm_ns\":240,"
                      "\"wait_ns\":210,\"busy_ns\":36,\"overlap_ns\":30,"),
            std::string::npos)
      << Json;
  EXPECT_EQ(text(std::nullopt, true), "{\"ranks\":null}");
}

} // namespace
