//===- MergeClockTest.cpp - Hosts placed by their clock exchange ----------===//
//
// sonde merge with traces of two hosts built in memory: one whose ranks
// measured their clock against rank 0's (format 1.4) goes on rank 0's
// timeline through that offset, whatever its wall clock says, and the note
// states the uncertainty; without rank 0's host among the files, or with no
// exchange, the wall clock places it, and the note says so.
//
//===----------------------------------------------------------------------===//

#include "Export.h"

#include <gtest/gtest.h>

#include "sonde/trace.h"

#include <string>
#include <vector>

using namespace sonde::trace;

namespace {

constexpr int64_t S = 1000000000; // one second in ns

/// A trace with one region at `EventReal` (its own wall clock) and anchors
/// 10 s apart: at true time t its clocks read Real0 + t and Mono0 + t.
Trace host(int64_t Rank, const char *Boot, int64_t Real0, int64_t Mono0,
           int64_t EventReal) {
  Trace T;
  T.Path = "r" + std::to_string(Rank) + ".sonde";
  T.Process.Pid = 100 + static_cast<uint64_t>(Rank);
  T.Process.Rank = Rank;
  T.Process.Program = "train";
  T.Process.BootId = Boot;
  T.Process.StartNs = Real0;
  T.Process.EndNs = Real0 + 10 * S;
  T.ArgSets.push_back(std::make_unique<Args>());
  T.Sites.resize(2);
  T.Sites[1].Id = 1;
  T.Sites[1].Name = "gloo:all_reduce";
  T.Threads.push_back({0, 1, "main"});
  T.Anchors.push_back({0, Real0, Mono0});
  T.Anchors.push_back({0, Real0 + 10 * S, Mono0 + 10 * S});
  Event E;
  E.Site = 1;
  E.Ts = EventReal;
  E.Dur = 1000;
  E.A = T.ArgSets.front().get();
  T.Events.push_back(E);
  return T;
}

bool hasNote(const std::vector<std::string> &Notes, const std::string &Part) {
  for (const std::string &N : Notes)
    if (N.find(Part) != std::string::npos)
      return true;
  return false;
}

TEST(MergeClockTest, AnotherHostGoesOnRankZerosLineByItsExchange) {
  // The same instant, true time 5 s: rank 0's host reads real 1005 s,
  // rank 1's host (wall clock 7 s ahead, another boot) real 1012 s.
  std::vector<Trace> Ts;
  Ts.push_back(host(0, "boot-a", 1000 * S, 50 * S, 1005 * S));
  Ts.push_back(host(1, "boot-b", 1007 * S, 300 * S, 1012 * S));
  Ts.push_back(host(2, "boot-a", 1000 * S, 50 * S, 1005 * S));
  // Rank 1 measured rank 0's monotonic clock minus its own: -250 s.
  Ts[1].Sync = {true, -250 * S, 50, 0, "boot-a"};
  // Rank 2 shares rank 0's boot: its exchange is not needed.
  Ts[2].Sync = {true, 40, 30, 0, "boot-a"};
  std::vector<std::string> Notes = alignClocks(Ts);
  ASSERT_EQ(Ts.size(), 3u);
  EXPECT_EQ(Ts[1].Events[0].Ts, Ts[0].Events[0].Ts);
  EXPECT_EQ(Ts[2].Events[0].Ts, Ts[0].Events[0].Ts);
  EXPECT_EQ(Ts[0].Events[0].Ts, 1005 * S);
  EXPECT_TRUE(hasNote(Notes, "r1.sonde (train rank 1 pid 101): on another "
                             "host than rank 0; its host placed by its clock "
                             "exchange with rank 0: its clock 250.000 s "
                             "ahead, within +-50 ns (uncertainty 50 ns)"))
      << Notes.size();
  EXPECT_FALSE(hasNote(Notes, "wall clock"));
}

TEST(MergeClockTest, WithoutTheReferenceOrAnExchangeTheWallClockPlaces) {
  std::vector<Trace> Ts;
  Ts.push_back(host(1, "boot-b", 1007 * S, 300 * S, 1012 * S));
  Ts.push_back(host(3, "boot-c", 1000 * S, 80 * S, 1005 * S));
  Ts[0].Sync = {true, -250 * S, 50, 0, "boot-a"};
  std::vector<std::string> Notes = alignClocks(Ts);
  // By their wall clocks: 7 s apart.
  EXPECT_EQ(Ts[0].Events[0].Ts - Ts[1].Events[0].Ts, 7 * S);
  EXPECT_TRUE(hasNote(Notes, "its clock exchange was with rank 0, whose host "
                             "has no file here; placed by its wall clock"));
  EXPECT_TRUE(hasNote(Notes, "2 hosts or boots without a clock exchange: "
                             "placed relative to each other by their wall "
                             "clocks"));
}

TEST(MergeClockTest, ReadsAnExchangeFromItsClockAnchor) {
  // A 1.4 file (the fuzz seed): the exchange in its second anchor.
  Trace T;
  std::string Error;
  ASSERT_TRUE(readTrace(
      std::string(SONDE_FUZZ_CORPUS) + "/trace/every-kind-1.4.sonde", T, Error))
      << Error;
  EXPECT_EQ(T.VersionMinor, 4);
  EXPECT_TRUE(T.Problem.empty()) << T.Problem;
  EXPECT_EQ(T.Process.LocalRank, 1);
  EXPECT_EQ(T.Process.WorldSize, 4);
  ASSERT_TRUE(T.Sync.Known);
  EXPECT_EQ(T.Sync.OffsetNs, -7000000123);
  EXPECT_EQ(T.Sync.UncertaintyNs, 61283);
  EXPECT_EQ(T.Sync.RefRank, 0);
  EXPECT_EQ(T.Sync.RefBoot, "0a9e3c54-7f5d-4b0e-9f38-6c2d1e8b4a77");
  // Its 1.2 original has none.
  Trace Old;
  ASSERT_TRUE(readTrace(
      std::string(SONDE_FUZZ_CORPUS) + "/trace/every-kind.sonde", Old, Error));
  EXPECT_FALSE(Old.Sync.Known);
  EXPECT_EQ(Old.Events.size(), T.Events.size());
}

} // namespace
