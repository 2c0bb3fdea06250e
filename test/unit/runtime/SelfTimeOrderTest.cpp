//===- SelfTimeOrderTest.cpp - Self time when regions come late -----------===//
//
// `sonde summary`'s first lines give the self time per category. A region
// that holds more events than the reader's look-ahead (a `train` or an
// epoch region around a long run) comes after what it holds
// (docs/exports.md, "Order"); the self times must still be those of the
// events in program order. A trace of epochs around steps around fetches,
// built with the format's own encoders, is summed with a look-ahead far
// smaller than an epoch and with one larger than the file.
//
//===----------------------------------------------------------------------===//

#include "TraceBytes.h"
#include "TraceFormat.h"
#include "report/ReportData.h"
#include "sonde/trace.h"
#include "summary/SummaryStats.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace sonde;
using namespace sonde::trace;
using format::Block;
using format::Ev;
using namespace tracebytes;

namespace {

/// Epochs (pipeline, level 0) of steps (compute, level 1) that each hold a
/// fetch (dataloader, level 2), ten steps to an Events block, records in
/// the order they end, as the writer puts them.
std::string epochs(int Epochs, int Steps) {
  std::string B = header(2);
  site(B, 1, SiteKind::Region, 0, "pipeline", "epoch");
  site(B, 2, SiteKind::Region, 0, "compute", "step");
  site(B, 3, SiteKind::Region, 0, "dataloader.fetch", "fetch");
  block(B, Block::Thread, vi(0) + vi(100) + str("t"));
  uint64_t T = 10, Prev = 0;
  auto Region = [&](uint32_t Site, uint64_t End, uint64_t Dur, uint64_t Level) {
    std::string R = vi(uint64_t(Site) << 4 | static_cast<uint8_t>(Ev::Region)) +
                    vi(format::zigzag(static_cast<int64_t>(End - Prev))) +
                    vi(Dur) + vi(Level);
    Prev = End;
    return R;
  };
  for (int E = 0; E < Epochs; ++E) {
    uint64_t EpochStart = T;
    std::string Events;
    // A block of ten steps at a time: the reader has decoded several when
    // the epoch's record comes.
    auto Flush = [&] {
      if (!Events.empty())
        block(B, Block::Events, Events);
      Events.clear();
    };
    for (int S = 0; S < Steps; ++S) {
      if (S % 10 == 0) {
        Flush();
        Events = vi(0) + vi(T);
        Prev = T;
      }
      uint64_t StepStart = T + 1;
      uint64_t FetchStart = StepStart + 2 + S % 3;
      uint64_t FetchEnd = FetchStart + 7 + S % 5;
      T = FetchEnd + 11;
      Events += Region(3, FetchEnd, FetchEnd - FetchStart, 2);
      Events += Region(2, T, T - StepStart, 1);
    }
    T += 5;
    Events += Region(1, T, T - EpochStart, 0);
    Flush();
    T += 3;
  }
  block(B, Block::End, str("exit") + vi(0));
  return B;
}

/// Self time per category of the trace at `Path`, read with `LookAhead`.
std::vector<std::pair<std::string, int64_t>>
selfTimes(const std::string &Path, size_t LookAhead, uint64_t &Late) {
  std::vector<Trace> Traces(1);
  std::string Error;
  EXPECT_TRUE(openTrace(Path, Traces[0], Error)) << Error;
  Traces[0].Stream->setLookAhead(LookAhead);
  summary::Totals T = summary::collect(Traces);
  Late = Traces[0].Stream->late();
  return T.ByCategory;
}

/// `sonde report`'s self time per site (report/ReportData.h, SelfTimes)
/// of the trace at `Path`, read with `LookAhead`.
std::map<uint32_t, int64_t> reportSelfTimes(const std::string &Path,
                                            size_t LookAhead) {
  Trace T;
  std::string Error;
  EXPECT_TRUE(openTrace(Path, T, Error)) << Error;
  T.Stream->setLookAhead(LookAhead);
  report::SelfTimes<uint32_t> Self;
  std::map<uint32_t, int64_t> Out;
  auto Done = [&](uint32_t Site, int64_t Ns) { Out[Site] += Ns; };
  for (const Event &E : events(T))
    Self.add(E, E.Site, Done, outOfOrder(T));
  Self.finish(Done);
  return Out;
}

} // namespace

TEST(SelfTimeOrder, RegionsPastTheLookAheadCountAsInProgramOrder) {
  std::string Path = ::testing::TempDir() + "self-time-order.sonde";
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << epochs(3, 40);
  }
  uint64_t LateWhole = 0, LateSmall = 0;
  auto Whole = selfTimes(Path, 1u << 20, LateWhole);
  auto Small = selfTimes(Path, 8, LateSmall);
  EXPECT_EQ(LateWhole, 0u);
  EXPECT_GT(LateSmall, 0u); // the epochs did come after what they hold
  EXPECT_EQ(Small, Whole);
  // And program order's self times are the ones the file says: an epoch
  // less its steps, a step less its fetch.
  ASSERT_EQ(Whole.size(), 3u);
  int64_t Sum = 0;
  for (const auto &[Category, Ns] : Whole) {
    EXPECT_GT(Ns, 0) << Category;
    Sum += Ns;
  }
  // Nothing counted twice: the categories add up to the epochs' time.
  std::vector<Trace> Traces(1);
  std::string Error;
  ASSERT_TRUE(openTrace(Path, Traces[0], Error)) << Error;
  int64_t Epochs = 0;
  for (const Event &E : events(Traces[0]))
    if (E.Site == 1)
      Epochs += E.Dur;
  EXPECT_EQ(Sum, Epochs);
  std::remove(Path.c_str());
}

TEST(SelfTimeOrder, TheReportsSelfTimesToo) {
  std::string Path = ::testing::TempDir() + "self-time-order-report.sonde";
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << epochs(3, 40);
  }
  auto Whole = reportSelfTimes(Path, 1u << 20);
  ASSERT_EQ(Whole.size(), 3u);
  EXPECT_EQ(reportSelfTimes(Path, 8), Whole);
  std::remove(Path.c_str());
}
