//===- WatchDeltaTest.cpp - Integer watches written as differences --------===//
//
// Format 1.6 writes an integer watch as the difference from its site's last
// integer in the same Events block (Ev::WatchDelta, docs/trace-format.md).
// These tests hold the reader to it on files built byte by byte (the
// arithmetic, and each way a difference can lack its base: the first record
// of a block, a base in another block, a last watch that was no integer, a
// file older than 1.6), to a 1.5 file the previous writer left (the fuzz
// corpus's int-watches-1.5.sonde), and the writer to it on real runs of
// test/programs/IntSeries.h's values and of scalar watches whose kind and
// nesting level change from record to record (the writer's run of scalar
// watches, Encoder.cpp's encodeScalarRun).
//
//===----------------------------------------------------------------------===//

#include "../../programs/IntSeries.h"
#include "TraceBytes.h"
#include "TraceFormat.h"
#include "sonde/trace.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace sonde;
using namespace sonde::trace;
using format::Block;
using format::Ev;
using format::Val;
using tracebytes::str;
using tracebytes::vi;

namespace {

/// A trace of format 1.`Minor` with watch sites 1 ("a") and 2 ("b") and
/// thread 0; Events blocks are added as raw record bytes.
struct File {
  explicit File(uint16_t Minor = format::WatchDeltaMinor) {
    Bytes.assign(format::Magic, 8);
    Bytes += std::string{1, 0, static_cast<char>(Minor), 0, 0, 0, 0, 0};
    block(Block::Process, vi(42) + vi(1) + vi(0) + str("host") + str("prog") +
                              vi(1000000000) + str("boot"));
    block(Block::Clock, vi(0) + vi(1000000000) + vi(1000000000));
    for (uint32_t Id : {1u, 2u})
      block(Block::Site, vi(Id) + char(static_cast<uint8_t>(SiteKind::Watch)) +
                             char(0) + vi(Id) + vi(0) + str("user") +
                             str(Id == 1 ? "a" : "b") + str("f.cpp") +
                             str("fn") + str("") + str(""));
    block(Block::Thread, vi(0) + vi(100) + str("t"));
  }
  static std::string head(uint32_t Site, Ev Type) {
    return vi(uint64_t(Site) << format::EvTypeBits |
              static_cast<uint8_t>(Type)) +
           vi(format::zigzag(1)); // one tick after the previous record
  }
  static std::string watchInt(uint32_t Site, int64_t V) {
    return head(Site, Ev::Watch) + char(static_cast<uint8_t>(Val::Int)) +
           vi(format::zigzag(V));
  }
  static std::string watchUInt(uint32_t Site, uint64_t V) {
    return head(Site, Ev::Watch) + char(static_cast<uint8_t>(Val::UInt)) +
           vi(V);
  }
  static std::string watchFloat(uint32_t Site, double D) {
    std::string R = head(Site, Ev::Watch) +
                    char(static_cast<uint8_t>(Val::Float)) + std::string(8, 0);
    std::memcpy(&R[R.size() - 8], &D, 8);
    return R;
  }
  static std::string delta(uint32_t Site, int64_t D) {
    return head(Site, Ev::WatchDelta) + vi(format::zigzag(D));
  }
  void events(const std::string &Records) {
    block(Block::Events, vi(0) + vi(1000) + Records);
  }
  void end() { block(Block::End, str("exit") + vi(0)); }
  void block(Block B, const std::string &Payload) {
    Bytes += char(static_cast<uint8_t>(B));
    auto Len = static_cast<uint32_t>(Payload.size());
    for (int I = 0; I < 4; ++I)
      Bytes += char((Len >> (8 * I)) & 0xff);
    Bytes += Payload;
  }
  Trace read() const {
    Trace T;
    std::string Error;
    EXPECT_TRUE(readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                               Bytes.size(), "t.sonde", T, Error))
        << Error;
    return T;
  }
  std::string Bytes;
};

/// The watch values of a trace, in order, as text ("a=5", "b=u7").
std::vector<std::string> values(const Trace &T) {
  std::vector<std::string> Out;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Watch)
      continue;
    std::string Name = T.site(E.Site).Name + "=";
    if (E.V.K == Value::Kind::Int)
      Out.push_back(Name + std::to_string(E.V.I));
    else if (E.V.K == Value::Kind::UInt)
      Out.push_back(Name + "u" + std::to_string(E.V.U));
    else
      Out.push_back(Name + "other");
  }
  return Out;
}

using Strings = std::vector<std::string>;

TEST(WatchDelta, CountsFromTheSitesLastIntegerInTheBlock) {
  File F;
  F.events(File::watchInt(1, 5) + File::delta(1, 3) +
           File::watchUInt(2, ~uint64_t(0)) + File::delta(1, -10) +
           File::delta(2, 1) +                                // wraps to 0
           File::watchInt(1, INT64_MAX) + File::delta(1, 1) + // to INT64_MIN
           File::watchUInt(1, 7) + File::delta(1, 2));        // the tag follows
  F.end();
  Trace T = F.read();
  EXPECT_EQ(T.Problem, "");
  EXPECT_EQ(values(T), (Strings{"a=5", "a=8", "b=u18446744073709551615", "a=-2",
                                "b=u0", "a=9223372036854775807",
                                "a=-9223372036854775808", "a=u7", "a=u9"}));
}

TEST(WatchDelta, WithoutAnIntegerOfItsSiteBeforeItInTheBlockIsCorrupt) {
  const std::string Why = "an integer watch given as a difference, with no "
                          "integer of its site before it in the block";
  struct Case {
    const char *What;
    std::vector<std::string> Blocks;
    Strings Kept;
  } Cases[] = {
      {"the first record", {File::delta(1, 1)}, {}},
      {"another site's integer",
       {File::watchInt(2, 4) + File::delta(1, 1)},
       {"b=4"}},
      {"a base in the block before", // each block reads alone
       {File::watchInt(1, 4), File::delta(1, 1)},
       {"a=4"}},
      {"a last watch that was a float",
       {File::watchInt(1, 4) + File::watchFloat(1, 0.5) + File::delta(1, 1)},
       {"a=4", "a=other"}},
  };
  for (const Case &C : Cases) {
    File F;
    for (const std::string &B : C.Blocks)
      F.events(B);
    Trace T = F.read();
    EXPECT_NE(T.Problem.find(Why), std::string::npos)
        << C.What << ": " << T.Problem;
    EXPECT_EQ(values(T), C.Kept) << C.What;
  }
}

TEST(WatchDelta, IsARecordOfUnknownTypeInAFileOlderThanOneSix) {
  File F(format::WatchDeltaMinor - 1);
  F.events(File::watchInt(1, 5) + File::delta(1, 3));
  Trace T = F.read();
  EXPECT_NE(T.Problem.find("a record of unknown type 11"), std::string::npos)
      << T.Problem;
  EXPECT_EQ(values(T), Strings{"a=5"});
}

/// What IntSeries.h says `exit-paths series N` records, per site name, as
/// values(T) spells them.
std::map<std::string, Strings> expectedSeries(uint64_t N) {
  using namespace intseries;
  std::map<std::string, Strings> Out;
  auto Put = [&](const std::string &Name, intseries::Val V) {
    Out[Name].push_back(Name + "=" +
                        (V.Signed ? std::to_string(static_cast<int64_t>(V.Bits))
                                  : "u" + std::to_string(V.Bits)));
  };
  for (uint64_t I = 0; I < N; ++I) {
    Put("counter", counter(I));
    Put("jumps", jumps(I));
    Put("mixed_sign", mixedSign(I));
    Put("countdown", countdown(I));
    Put("extra" + std::to_string(I % ExtraSites), extra(I));
    if (I % 7 == 0)
      Out["other"].push_back("other=other"); // a double
    if (I % 11 == 0)
      Out["other"].push_back("other=other"); // a bool
  }
  return Out;
}

std::map<std::string, Strings> bySite(const Strings &Values) {
  std::map<std::string, Strings> Out;
  for (const std::string &V : Values)
    Out[V.substr(0, V.find('='))].push_back(V);
  return Out;
}

TEST(WatchDelta, AOneFiveFileReadsAsItWasWritten) {
  // Written by the 1.5 writer: `exit-paths series 300`, every integer whole.
  Trace T;
  std::string Error;
  ASSERT_TRUE(
      readTrace(SONDE_FUZZ_CORPUS "/trace/int-watches-1.5.sonde", T, Error))
      << Error;
  EXPECT_EQ(T.VersionMinor, 5);
  EXPECT_EQ(T.Problem, "");
  EXPECT_EQ(bySite(values(T)), expectedSeries(300));
}

/// Walks the records of a trace file's Events blocks by hand, as a second
/// reader would, for runs of scalar watches and regions: calls
/// Fn(Type, Site, Level) for each Watch, WatchDelta and Region record,
/// Level being the nesting level the block's Level records give (a block
/// starts at 0). Any other record type fails the test.
template <class FnT> void walkRecords(const std::string &Bytes, FnT Fn) {
  const auto *P = reinterpret_cast<const uint8_t *>(Bytes.data());
  size_t Off = format::FileHeaderSize;
  while (Off + format::BlockHeaderSize <= Bytes.size()) {
    auto Type = static_cast<Block>(P[Off]);
    uint32_t Len = P[Off + 1] | P[Off + 2] << 8 | P[Off + 3] << 16 |
                   uint32_t(P[Off + 4]) << 24;
    const uint8_t *Body = P + Off + format::BlockHeaderSize;
    Off += format::BlockHeaderSize + Len;
    if (Type != Block::Events || Off > Bytes.size())
      continue;
    format::Cursor C(Body, Body + Len);
    C.varint(); // thread
    C.varint(); // base tick
    uint32_t Level = 0;
    while (C.ok() && !C.atEnd()) {
      uint64_t Head = C.varint();
      auto T = static_cast<Ev>(Head & 0xf);
      uint64_t Id = Head >> format::EvTypeBits;
      if (T == Ev::Level) {
        Level = static_cast<uint32_t>(Id);
        continue;
      }
      C.varint(); // dt
      if (T == Ev::Region) {
        C.varint(); // duration
        C.varint(); // level
      } else if (T == Ev::WatchDelta) {
        C.varint();
      } else if (T == Ev::Watch) {
        auto Tag = static_cast<Val>(C.byte());
        if (Tag == Val::Float)
          C.bytes(8);
        else if (Tag == Val::Int || Tag == Val::UInt)
          C.varint();
      } else {
        ADD_FAILURE() << "a record of type " << int(T) << " in the run";
        return;
      }
      Fn(T, Id, Level);
    }
    EXPECT_TRUE(C.ok());
  }
}

/// Counts the Watch and WatchDelta records of one site.
void countRecords(const std::string &Bytes, uint32_t Site, size_t &Whole,
                  size_t &Deltas) {
  walkRecords(Bytes, [&](Ev T, uint64_t Id, uint32_t) {
    if (T == Ev::Region)
      ADD_FAILURE() << "a region in the series";
    else if (Id == Site)
      ++(T == Ev::WatchDelta ? Deltas : Whole);
  });
}

/// The bytes of the file at `Path`.
std::string fileBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// Runs `exit-paths ARGS` with no SONDE_ variable but `Env` and
/// SONDE_OUTPUT, a new directory left in `Dir`; the one trace file it
/// wrote, or "" when it failed or left another number of them.
std::string runExitPaths(const std::string &Env, const std::string &Args,
                         std::string &Dir) {
  char Tmp[] = "/tmp/sonde-delta-XXXXXX";
  if (!mkdtemp(Tmp))
    return "";
  Dir = Tmp;
  std::string Cmd = "env -i SONDE_OUTPUT=" + Dir + " " + Env +
                    " " SONDE_EXIT_PATHS " " + Args + " >/dev/null";
  std::vector<std::string> Files;
  std::string Error;
  if (std::system(Cmd.c_str()) != 0 || !expandInputs({Dir}, Files, Error) ||
      Files.size() != 1)
    return "";
  return Files[0];
}

TEST(WatchDelta, ARealRunWritesCountersAsDifferencesAndReadsThemBack) {
  // A ring small enough to wrap, so the run spans many Events blocks.
  std::string Dir;
  std::string Path = runExitPaths("SONDE_BUFFER_SIZE=64K", "series 20000", Dir);
  ASSERT_FALSE(Path.empty());
  Trace T;
  std::string Error;
  ASSERT_TRUE(readTrace(Path, T, Error)) << Error;
  EXPECT_EQ(T.VersionMinor, format::Minor);
  EXPECT_EQ(T.Problem, "");
  EXPECT_EQ(bySite(values(T)), expectedSeries(20000));
  // The counter (site 1, the first hit) is whole only at the start of a
  // block or after a site that shares its slot in the writer's table: most
  // of its 20000 records are differences, whatever the blocks' timing.
  std::string Bytes = fileBytes(Path);
  ASSERT_FALSE(Bytes.empty());
  size_t Whole = 0, Deltas = 0;
  countRecords(Bytes, 1, Whole, Deltas);
  EXPECT_EQ(Whole + Deltas, 20000u);
  EXPECT_GT(Deltas, Whole);
  std::system(("rm -rf " + Dir).c_str());
}

/// The nesting level of each Watch and WatchDelta record of `Site`, in
/// file order, as its Events block's Level records give it (the reader
/// orders by it but does not keep it on a watch's Event).
std::vector<uint32_t> watchLevels(const std::string &Bytes, uint32_t Site) {
  std::vector<uint32_t> Out;
  walkRecords(Bytes, [&](Ev T, uint64_t Id, uint32_t Level) {
    if (T != Ev::Region && Id == Site)
      Out.push_back(Level);
  });
  return Out;
}

TEST(WatchDelta, ScalarWatchesOfChangingKindAndLevelReadBackAsRecorded) {
  // `exit-paths scalars`: 300000 steps, a million records in the default
  // ring, so the writer's runs of scalar watches cross the limits of an
  // Events block and of its output buffer many times.
  const long Steps = 300000;
  std::string Dir;
  std::string Path = runExitPaths("", "scalars " + std::to_string(Steps), Dir);
  ASSERT_FALSE(Path.empty());
  Trace T;
  std::string Error;
  ASSERT_TRUE(readTrace(Path, T, Error)) << Error;
  EXPECT_EQ(T.Problem, "");
  long Count = 0, Shifting = 0, Regions = 0;
  std::string Wrong;
  for (const Event &E : T.Events) {
    if (E.Kind == EventKind::Region) {
      ++Regions;
      continue;
    }
    const std::string &Name = T.site(E.Site).Name;
    long I = Name == "count" ? Count++ : Shifting++;
    bool Ok;
    if (Name == "count") {
      Ok = E.V.K == Value::Kind::Int && E.V.I == I;
    } else {
      switch (I % 4) {
      case 0:
        Ok = Ok && E.V.K == Value::Kind::Int && E.V.I == -I;
        break;
      case 1:
        Ok = Ok && E.V.K == Value::Kind::Float &&
             E.V.F == static_cast<double>(I) + 0.5;
        break;
      case 2:
        Ok = Ok && E.V.K == Value::Kind::UInt &&
             E.V.U == static_cast<uint64_t>(I) * 3;
        break;
      default:
        Ok = Ok && E.V.K == Value::Kind::Bool && E.V.B == (I % 8 == 3);
      }
    }
    if (!Ok && Wrong.empty())
      Wrong = Name + " #" + std::to_string(I);
  }
  EXPECT_EQ(Wrong, "") << "the first watch not read back as recorded";
  EXPECT_EQ(Count, Steps);
  EXPECT_EQ(Shifting, Steps);
  EXPECT_EQ(Regions, Steps / 3 + 2 * (Steps / 3)); // Steps is a multiple of 3
  // Each step's watches at its level, whatever block they fell in.
  uint32_t CountSite = 0;
  for (const SiteInfo &S : T.Sites)
    if (S.Name == "count")
      CountSite = S.Id;
  ASSERT_NE(CountSite, 0u);
  std::vector<uint32_t> Levels = watchLevels(fileBytes(Path), CountSite);
  ASSERT_EQ(Levels.size(), static_cast<size_t>(Steps));
  for (long I = 0; I < Steps; ++I)
    if (Levels[I] != static_cast<uint32_t>(I % 3)) {
      ADD_FAILURE() << "count #" << I << " at level " << Levels[I];
      break;
    }
  std::system(("rm -rf " + Dir).c_str());
}

} // namespace
