//===- CheckSplitTest.cpp - The check walk split across two cores ---------===//
//
// A long file's check walks its later blocks on another core and takes in
// what that part found (reader/CheckSplit.cpp). These tests hold the split
// to one walk in file order: on every file of the fuzzer's corpus (real,
// torn and corrupt traces), the events, their args, the counts, the times
// and the problems said are the same with the split forced as without it;
// and on a file built for it, a pop in the later part of a push in the
// earlier one gives the regions still open at the end the args one walk
// gives them.
//
//===----------------------------------------------------------------------===//

#include "EventText.h"
#include "FuzzCorpus.h"
#include "TraceBytes.h"
#include "TraceFormat.h"
#include "reader/Decoder.h"
#include "sonde/trace.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sonde;
using namespace sonde::trace;
using format::Block;
using format::Ev;
using namespace tracebytes;

namespace {

/// Everything a command could print of a trace read as a stream; `InPlace`:
/// as sonde check reads it, the values kept encoded in the file's bytes
/// (where the check walk notes each value's extent for the events walk).
std::string readAll(const std::string &Bytes, bool InPlace = false) {
  TraceStream S;
  std::string Error;
  auto Own = std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
  if (!S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true,
                   InPlace ? Own : nullptr))
    return "error: " + Error;
  S.setEncodedValues(InPlace);
  const Trace &T = S.trace();
  std::string Out = "problem: " + T.Problem +
                    "\ncount: " + std::to_string(T.EventCount) +
                    "\nearliest: " + std::to_string(T.EarliestNs) +
                    "\nend: " + std::to_string(T.Process.EndNs) + "\n";
  while (const Event *E = S.next())
    Out += eventText(*E);
  return Out + "late: " + std::to_string(S.late()) + "\n";
}

/// readAll() with the check split wherever a file has two blocks, and in
/// one walk.
std::pair<std::string, std::string> splitAndWhole(const std::string &Bytes,
                                                  bool InPlace = false) {
  uint64_t Saved = sonde::trace::detail::ParallelCheckMinBytes;
  sonde::trace::detail::ParallelCheckMinBytes = 0;
  std::string Split = readAll(Bytes, InPlace);
  sonde::trace::detail::ParallelCheckMinBytes = UINT64_MAX;
  std::string Whole = readAll(Bytes, InPlace);
  sonde::trace::detail::ParallelCheckMinBytes = Saved;
  return {Split, Whole};
}

/// A context push of `Site` with one integer, at `Dt` ticks after the last.
std::string push(uint32_t Site, uint64_t Dt, int64_t Value) {
  return vi(uint64_t(Site) << 4 | static_cast<uint8_t>(Ev::CtxPush)) +
         vi(format::zigzag(static_cast<int64_t>(Dt))) + vi(1) +
         char(static_cast<uint8_t>(format::Val::Int)) +
         vi(format::zigzag(Value));
}
std::string pop(uint32_t Site, uint64_t Dt) {
  return vi(uint64_t(Site) << 4 | static_cast<uint8_t>(Ev::CtxPop)) +
         vi(format::zigzag(static_cast<int64_t>(Dt)));
}

} // namespace

TEST(CheckSplit, EveryCorpusTraceReadsAsOneWalkReadsIt) {
  unsigned N = 0;
  for (const auto &[Name, Bytes] : fuzzTraceCorpus()) {
    auto [Split, Whole] = splitAndWhole(Bytes);
    EXPECT_EQ(Split, Whole) << Name;
    // In place, split or not: the extents of both parts make one list.
    auto [InPlaceSplit, InPlaceWhole] = splitAndWhole(Bytes, true);
    EXPECT_EQ(InPlaceSplit, Whole) << Name;
    EXPECT_EQ(InPlaceWhole, Whole) << Name;
    ++N;
  }
  EXPECT_GE(N, 10u);
}

TEST(CheckSplit, APopInTheLaterPartPopsAPushOfTheEarlierOne) {
  std::string B = header(6);
  site(B, 1, SiteKind::Region, 0, "cat", "train", "");
  site(B, 2, SiteKind::Region, ContextArgs, "cat", "epoch", "epoch");
  site(B, 3, SiteKind::Region, ContextArgs, "cat", "phase", "phase");
  site(B, 4, SiteKind::Region, ContextArgs, "cat", "lr", "lr");
  block(B, Block::Thread, vi(0) + vi(100) + str("t"));
  // The earlier part: epoch 1 and phase 7 pushed; the later part pops the
  // epoch (a push it never saw), pushes epoch 2, and pushes lr 5 then
  // pops it again.
  block(B, Block::Events,
        vi(0) + vi(10) + push(2, 0, 1) + push(3, 1, 7) + push(2, 1, 0) +
            pop(2, 1));
  block(B, Block::Events,
        vi(0) + vi(20) + pop(2, 0) + push(2, 1, 2) + push(4, 1, 5) + pop(4, 1));
  block(B, Block::Unfinished, vi(0) + vi(1) + vi(5) + vi(0));
  block(B, Block::End, str("exit") + vi(0));
  auto [Split, Whole] = splitAndWhole(B);
  EXPECT_EQ(Split, Whole);
  // The train region, open at the end, has the phase and the second epoch.
  EXPECT_NE(Whole.find("U phase=7.000000 epoch=2.000000\n"), std::string::npos)
      << Whole;
}

TEST(CheckSplit, CorruptionInBothPartsIsSaidAsOneWalkSaysIt) {
  std::string B = header(6);
  site(B, 1, SiteKind::Watch, 0, "cat", "loss", "");
  block(B, Block::Thread, vi(0) + vi(100) + str("t"));
  std::string Watch = vi(1 << 4 | static_cast<uint8_t>(Ev::Watch)) + vi(2) +
                      char(static_cast<uint8_t>(format::Val::Int)) + vi(4);
  std::string Unknown = vi(9u << 4 | static_cast<uint8_t>(Ev::Watch)) + vi(2);
  for (int I = 0; I < 4; ++I) // a record of an undefined site in each block
    block(B, Block::Events,
          vi(0) + vi(100 * I) + Watch + (I % 2 ? Unknown : Watch) + Watch);
  block(B, Block::End, str("exit") + vi(0));
  auto [Split, Whole] = splitAndWhole(B);
  EXPECT_EQ(Split, Whole);
  EXPECT_NE(Whole.find("(and 1 more)"), std::string::npos) << Whole;
}
