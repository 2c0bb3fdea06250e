//===- StreamTest.cpp - Reading a trace as a stream -----------------------===//
//
// The streaming reader (TraceStream) gives what the whole-file reader gives,
// event for event, in the same order; holds what may still move and no
// more; and, when a region holds more than its look-ahead, goes on in
// bounded memory and counts what it gave early. Traces are built here
// block by block with the format's own encoders.
//
//===----------------------------------------------------------------------===//

#include "FuzzCorpus.h"
#include "TraceFormat.h"
#include "sonde/trace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace sonde;
using namespace sonde::trace;
using format::Block;
using format::Ev;

namespace {

/// A trace file, block by block.
class TraceBuilder {
public:
  TraceBuilder() {
    Bytes.assign(format::Magic, 8);
    Bytes += std::string("\x01\x00\x02\x00\x00\x00\x00\x00", 8); // 1.2
    block(Block::Process, vi(42) + vi(1) + vi(0) + str("host") + str("prog") +
                              vi(1000000000) + str("boot"));
    clock(0, 1000000000);
  }
  void clock(uint64_t Tsc, uint64_t Real, const std::string &Tail = "") {
    block(Block::Clock, vi(Tsc) + vi(Real) + vi(Real) + Tail);
  }
  void site(uint32_t Id, SiteKind K, const std::string &Name) {
    block(Block::Site, vi(Id) + char(static_cast<uint8_t>(K)) + char(0) +
                           vi(Id) + vi(0) + str("cat") + str(Name) +
                           str("f.cpp") + str("fn") + str("") + str(""));
  }
  void thread(uint32_t Index) {
    block(Block::Thread, vi(Index) + vi(100 + Index) + str("t"));
  }
  /// Records of one thread: (site, type, tsc, dur, level).
  struct Rec {
    uint32_t Site;
    Ev Type;
    uint64_t Tsc, Dur = 0, Level = 0;
  };
  void events(uint32_t Thread, const std::vector<Rec> &Recs) {
    std::string B = vi(Thread) + vi(Recs.empty() ? 0 : Recs[0].Tsc);
    uint64_t Prev = Recs.empty() ? 0 : Recs[0].Tsc;
    uint64_t PointLevel = 0;
    for (const Rec &R : Recs) {
      if (R.Type != Ev::Region && R.Level != PointLevel) {
        B += vi(R.Level << 4 | static_cast<uint8_t>(Ev::Level));
        PointLevel = R.Level;
      }
      B += vi(uint64_t(R.Site) << 4 | static_cast<uint8_t>(R.Type));
      B += vi(format::zigzag(static_cast<int64_t>(R.Tsc - Prev)));
      Prev = R.Tsc;
      if (R.Type == Ev::Region)
        B += vi(R.Dur) + vi(R.Level);
      if (R.Type == Ev::Watch)
        B += char(static_cast<uint8_t>(format::Val::Int)) +
             vi(format::zigzag(static_cast<int64_t>(R.Tsc)));
    }
    block(Block::Events, B);
  }
  void unfinished(uint32_t Thread, uint32_t Site, uint64_t Start,
                  uint32_t Level) {
    block(Block::Unfinished, vi(Thread) + vi(Site) + vi(Start) + vi(Level));
  }
  void end() { block(Block::End, str("exit") + vi(0)); }

  std::string Bytes;

private:
  static std::string vi(uint64_t V) {
    char Buf[10];
    return std::string(Buf, format::putVarint(Buf, V));
  }
  static std::string str(const std::string &S) { return vi(S.size()) + S; }
  void block(Block B, const std::string &Payload) {
    Bytes += char(static_cast<uint8_t>(B));
    uint32_t Len = static_cast<uint32_t>(Payload.size());
    for (int I = 0; I < 4; ++I)
      Bytes += char((Len >> (8 * I)) & 0xff);
    Bytes += Payload;
  }
};

std::string describe(const Event &E) {
  return std::to_string(E.Thread) + "/" + std::to_string(E.Site) + "@" +
         std::to_string(E.Ts) + "+" + std::to_string(E.Dur) + " L" +
         std::to_string(E.Level) + (E.Unfinished ? " U" : "") + " n" +
         std::to_string(E.A->size());
}

/// Opens `S` on a builder's bytes, which outlive it.
::testing::AssertionResult openOn(TraceStream &S, const std::string &Bytes) {
  std::string Error;
  if (S.openBytes(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size(),
                  "t.sonde", Error))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << Error;
}

std::vector<std::string> whole(const std::string &Bytes) {
  Trace T;
  std::string Error;
  EXPECT_TRUE(readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                             Bytes.size(), "t.sonde", T, Error))
      << Error;
  std::vector<std::string> Out;
  for (const Event &E : T.Events)
    Out.push_back(describe(E));
  return Out;
}

/// How streamed() reads: on the caller's thread, on a walk thread, or
/// decoded ahead (walkAhead()) and checked as read (as sonde check does).
enum class How { Here, Thread, Ahead, AheadCheckedAsRead };

std::vector<std::string> streamed(const std::string &Bytes, size_t LookAhead,
                                  uint64_t *Late = nullptr, How H = How::Here,
                                  std::string *Problem = nullptr) {
  TraceStream S;
  std::string Error;
  EXPECT_TRUE(S.openBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                          Bytes.size(), "t.sonde", Error, true, nullptr,
                          H == How::AheadCheckedAsRead))
      << Error;
  S.setLookAhead(LookAhead);
  if (H == How::Thread)
    S.setWalkThread(TraceStream::WalkThread::Always);
  if (H == How::Ahead || H == How::AheadCheckedAsRead) {
    S.walkAhead();
    S.rewind(); // as events(T) does first: the walk ahead is kept
  }
  std::vector<std::string> Out;
  while (const Event *E = S.next())
    Out.push_back(describe(*E));
  if (Late)
    *Late = S.late();
  if (Problem)
    *Problem = S.trace().Problem;
  return Out;
}

/// Two threads; on thread 0 an epoch region around steps, each step around
/// a watch; on thread 1 a loader's regions at level 0.
TraceBuilder twoThreads(int Epochs, int Steps) {
  TraceBuilder B;
  B.site(1, SiteKind::Region, "epoch");
  B.site(2, SiteKind::Region, "step");
  B.site(3, SiteKind::Watch, "loss");
  B.site(4, SiteKind::Region, "fetch");
  B.thread(0);
  B.thread(1);
  uint64_t T = 10;
  for (int E = 0; E < Epochs; ++E) {
    uint64_t EpochStart = T;
    std::vector<TraceBuilder::Rec> Main, Loader;
    for (int S = 0; S < Steps; ++S) {
      uint64_t StepStart = T;
      Main.push_back({3, Ev::Watch, T + 5, 0, 2});
      T += 10;
      Main.push_back({2, Ev::Region, T, T - StepStart, 1});
      Loader.push_back({4, Ev::Region, T - 3, 4, 0});
      T += 1;
    }
    Main.push_back({1, Ev::Region, T, T - EpochStart, 0});
    B.events(1, Loader); // the loader's block first: files interleave
    B.events(0, Main);
    T += 2;
  }
  B.clock(T + 10, 1000000000 + T + 10);
  return B;
}

} // namespace

TEST(TraceStream, GivesWhatTheWholeReaderGives) {
  TraceBuilder B = twoThreads(3, 4);
  B.end();
  auto Whole = whole(B.Bytes);
  ASSERT_EQ(Whole.size(), 3u * (1 + 3 * 4));
  EXPECT_EQ(streamed(B.Bytes, 1u << 20), Whole);
}

TEST(TraceStream, RegionsOpenAtTheEndGoBeforeWhatTheyHold) {
  TraceBuilder B = twoThreads(2, 3);
  // A `train` region open since tick 5 at level 0 (its records at level
  // 1 and deeper would be, in a real file; the order rule only needs it to
  // be known).
  B.site(5, SiteKind::Region, "train");
  B.unfinished(0, 5, 5, 0);
  B.end();
  auto Whole = whole(B.Bytes);
  EXPECT_EQ(streamed(B.Bytes, 1u << 20), Whole);
  EXPECT_NE(Whole[0].find("0/5@"), std::string::npos) << Whole[0];
}

TEST(TraceStream, AFullLookAheadGivesWayAndSaysSo) {
  // An epoch region holds 3 * 50 records; a look-ahead of 16 cannot wait
  // for it: its records go out first, the epoch after them.
  TraceBuilder B = twoThreads(2, 50);
  B.end();
  auto Whole = whole(B.Bytes);
  uint64_t Late = 0;
  auto Small = streamed(B.Bytes, 16, &Late);
  EXPECT_GT(Late, 0u);
  EXPECT_NE(Small, Whole);
  // Nothing lost, nothing made up.
  std::sort(Small.begin(), Small.end());
  std::sort(Whole.begin(), Whole.end());
  EXPECT_EQ(Small, Whole);
  // Large enough: the same order again.
  uint64_t None = 1;
  streamed(B.Bytes, 1000, &None);
  EXPECT_EQ(None, 0u);
}

TEST(TraceStream, KnowsCountsAndTimesBeforeTheEvents) {
  TraceBuilder B = twoThreads(2, 2);
  B.end();
  TraceStream S;
  ASSERT_TRUE(openOn(S, B.Bytes));
  const Trace &T = S.trace();
  EXPECT_TRUE(T.Events.empty());
  EXPECT_EQ(T.EventCount, 2u * (1 + 3 * 2));
  int64_t Earliest = INT64_MAX;
  uint64_t N = 0;
  while (const Event *E = S.next()) {
    Earliest = std::min(Earliest, E->Ts);
    ++N;
  }
  EXPECT_EQ(N, T.EventCount);
  EXPECT_EQ(T.EarliestNs, Earliest);
  // A second pass starts over.
  uint64_t Again = 0;
  while (S.next())
    ++Again;
  EXPECT_EQ(Again, N);
}

TEST(TraceStream, TheEarliestTimeIsTheEarliestEventsPastAWrappedTick) {
  // A corrupt clock of 1e-10 ns a tick, and a tick more than 2^63 past the
  // base: taken as a distance before it, its time is within the range but
  // earlier than the smallest tick's. The check's extreme ticks do not say
  // that: the earliest time must be the earliest event's, as the one walk
  // (OneWalkTest) finds it.
  TraceBuilder B;
  B.site(1, SiteKind::Watch, "w");
  B.thread(0);
  uint64_t Wrapped = (uint64_t(1) << 63) + 100;
  B.events(0, {{1, Ev::Watch, 100}, {1, Ev::Watch, Wrapped}});
  B.clock(uint64_t(1000000000) * 1000000000, 1100000000);
  B.end();
  TraceStream S;
  ASSERT_TRUE(openOn(S, B.Bytes));
  int64_t Earliest = INT64_MAX;
  while (const Event *E = S.next())
    Earliest = std::min(Earliest, E->Ts);
  EXPECT_LT(Earliest, 1000000000);
  EXPECT_EQ(S.trace().EarliestNs, Earliest);
}

TEST(TraceStream, EveryCorpusTraceReadsAsTheWholeReaderReadsIt) {
  unsigned N = 0;
  for (const auto &[Name, Bytes] : fuzzTraceCorpus()) {
    Trace T;
    std::string Error;
    if (!readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                        Bytes.size(), Name, T, Error))
      continue;
    EXPECT_EQ(streamed(Bytes, 1u << 20), whole(Bytes)) << Name;
    std::string Here, Ahead;
    streamed(Bytes, 1u << 20, nullptr, How::Here, &Here);
    EXPECT_EQ(
        streamed(Bytes, 1u << 20, nullptr, How::AheadCheckedAsRead, &Ahead),
        whole(Bytes))
        << Name;
    EXPECT_EQ(Ahead, Here) << Name << ": the same problems said";
    ++N;
  }
  EXPECT_GE(N, 1u);
}

TEST(TraceStream, AFileCutAfterItWasOpenedIsSaid) {
  // The events walk reads the file again: when it was cut in between
  // (a log rotation, a user), the blocks it cannot read are counted, and
  // `sonde` says so (SondeMain: "could not be read again").
  TraceBuilder B = twoThreads(2, 3);
  B.end();
  std::string Path = ::testing::TempDir() + "cut.sonde";
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << B.Bytes;
  }
  TraceStream S;
  std::string Error;
  ASSERT_TRUE(S.open(Path, Error)) << Error;
  ASSERT_EQ(truncate(Path.c_str(), 100), 0);
  uint64_t N = 0;
  while (S.next())
    ++N;
  EXPECT_LT(N, S.trace().EventCount);
  EXPECT_GT(S.unreadBlocks(), 0u);
  std::remove(Path.c_str());
}

TEST(TraceStream, TheWalkOnItsOwnThreadGivesTheSameEvents) {
  // Many batches of the walk thread, and a look-ahead small enough to give
  // way: the same events, in the same order, the same late count.
  TraceBuilder B = twoThreads(40, 60);
  B.end();
  auto Whole = whole(B.Bytes);
  ASSERT_EQ(Whole.size(), 40u * (1 + 3 * 60));
  EXPECT_EQ(streamed(B.Bytes, 1u << 20, nullptr, How::Thread), Whole);
  uint64_t LateHere = 0, LateThere = 0;
  auto Here = streamed(B.Bytes, 50, &LateHere);
  auto There = streamed(B.Bytes, 50, &LateThere, How::Thread);
  EXPECT_EQ(There, Here);
  EXPECT_EQ(LateThere, LateHere);
  EXPECT_GT(LateHere, 0u);
}

TEST(TraceStream, RecordsDecodedAheadGiveTheSameEvents) {
  // walkAhead() decodes records before any is asked for, up to half the
  // look-ahead: the events, their order and the late count are those of
  // a walk on the caller's thread, when the look-ahead gives way later as
  // when it never does.
  TraceBuilder B = twoThreads(3, 1000); // an epoch holds 3000 records
  B.end();
  auto Whole = whole(B.Bytes);
  for (How H : {How::Ahead, How::AheadCheckedAsRead})
    EXPECT_EQ(streamed(B.Bytes, 1u << 20, nullptr, H), Whole);
  uint64_t LateHere = 0, LateAhead = 0, LateChecked = 0;
  auto Here = streamed(B.Bytes, 2000, &LateHere);
  EXPECT_GT(LateHere, 0u) << "the look-ahead gave way";
  EXPECT_EQ(streamed(B.Bytes, 2000, &LateAhead, How::Ahead), Here);
  EXPECT_EQ(LateAhead, LateHere);
  EXPECT_EQ(streamed(B.Bytes, 2000, &LateChecked, How::AheadCheckedAsRead),
            Here);
  EXPECT_EQ(LateChecked, LateHere);
}

TEST(TraceStream, LateCountsAsTheCallerSeesThemOnAnyThread) {
  // late() after each event is the count given with that event: the same
  // on a walk thread (which has walked batches further) as on the caller's
  // thread, and a stream decoded ahead that gave nothing says none.
  TraceBuilder B = twoThreads(3, 1000);
  B.end();
  auto LateEach = [&B](How H) {
    TraceStream S;
    EXPECT_TRUE(openOn(S, B.Bytes));
    S.setLookAhead(2000);
    if (H == How::Thread)
      S.setWalkThread(TraceStream::WalkThread::Always);
    if (H == How::Ahead) {
      S.walkAhead();
      EXPECT_EQ(S.late(), 0u) << "nothing given yet";
    }
    std::vector<uint64_t> Out;
    while (S.next())
      Out.push_back(S.late());
    return Out;
  };
  auto Here = LateEach(How::Here);
  ASSERT_GT(Here.back(), 0u);
  EXPECT_LT(Here.front(), Here.back()) << "counted as the events go out";
  EXPECT_EQ(LateEach(How::Thread), Here);
  EXPECT_EQ(LateEach(How::Ahead), Here);
}

TEST(TraceStream, AStreamDecodedAheadAndDroppedEndsClean) {
  TraceBuilder B = twoThreads(3, 1000);
  B.end();
  TraceStream S;
  ASSERT_TRUE(openOn(S, B.Bytes));
  S.walkAhead(); // never asked for an event: the destructor waits for it
}

TEST(TraceStream, AWalkStoppedMidwayStartsOverAndEndsClean) {
  TraceBuilder B = twoThreads(40, 60);
  B.end();
  auto Whole = whole(B.Bytes);
  TraceStream S;
  ASSERT_TRUE(openOn(S, B.Bytes));
  S.setWalkThread(TraceStream::WalkThread::Always);
  // A command that stops early (the walk thread is batches ahead), then a
  // second pass from the start, then a third: each gives every event.
  for (int I = 0; I < 1000; ++I)
    ASSERT_NE(S.next(), nullptr);
  S.rewind();
  for (int Pass = 0; Pass < 2; ++Pass) {
    std::vector<std::string> Got;
    while (const Event *E = S.next())
      Got.push_back(describe(*E));
    EXPECT_EQ(Got, Whole) << "pass " << Pass;
  }
  // Dropped midway: the destructor stops the walk thread.
  ASSERT_NE(S.next(), nullptr);
}

TEST(TraceStream, BytesAfterAnOlderFilesClockAnchorAreNotAClockExchange) {
  // Format 1.2 (the builder's): what follows an anchor in its Clock block
  // is left unread, as 1.2 readers left it; only 1.4 files carry the
  // exchange there.
  TraceBuilder B = twoThreads(1, 2);
  B.clock(100, 1000000100, std::string("\x05", 1));
  B.end();
  TraceStream S;
  ASSERT_TRUE(openOn(S, B.Bytes));
  EXPECT_EQ(S.trace().Problem, "");
  EXPECT_FALSE(S.trace().Sync.Known);
}
