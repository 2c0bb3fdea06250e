// The trace reader on every input of the fuzzer's corpus (fuzz/corpus/trace:
// real traces, torn ones, and the reproducers of bugs fuzz-trace found). It
// runs in every build, fuzzing or not, so a fixed bug stays fixed.

#include "sonde/trace.h"

#include "Export.h"
#include "FuzzCorpus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace sonde::trace;

TEST(TraceCorpus, EveryInputReadsOrIsRefused) {
  unsigned N = 0;
  for (const auto &[Name, Bytes] : fuzzTraceCorpus()) {
    Trace T;
    std::string Error;
    bool Ok = readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                             Bytes.size(), Name, T, Error);
    // Either a trace, or a reason.
    EXPECT_TRUE(Ok || !Error.empty()) << Name;
    // No table sized by a corrupt id: sites stay within the file's means.
    EXPECT_LE(T.Sites.size(), 4096 + Bytes.size() + 1) << Name;
    ++N;
  }
  EXPECT_GE(N, 3u);
}

TEST(TraceCorpus, HugeSiteIdInATinyFileIsCorruption) {
  // Found by fuzz-trace: an events block naming site 2^28 made the reader
  // allocate the site table for it.
  std::string Bytes("SONDETRC\x01\x00\x00\x00\x00\x00\x00\x00", 16);
  std::string Events = "\x00\x00"             // thread 0, tsc 0
                       "\x81\x80\x80\x80\x10" // head: region, site 2^28
                       "\x00\x00\x00";        // dtsc, dur, level
  Bytes += char(6);                           // Block::Events
  uint32_t Len = Events.size();
  for (int I = 0; I < 4; ++I)
    Bytes += char((Len >> (8 * I)) & 0xff);
  Bytes += Events;
  Trace T;
  std::string Error;
  readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size(),
                 "tiny.sonde", T, Error);
  EXPECT_LT(T.Sites.size(), 1u << 16);
}

TEST(TraceCorpus, ARecordOfAnotherKindsSiteIsCorruptionNotACrash) {
  // Issue 12 item 7: one flipped bit (byte 678 of a small real trace) turns
  // a watch record of state site 7 into a region record; the reader took
  // it, and `sonde summary` used a state row's index in the region table
  // (SIGSEGV in collect). Now the record is refused and the reader says so.
  std::string Path = SONDE_FUZZ_CORPUS "/trace/regress-region-on-state-site";
  Trace T;
  std::string Error;
  ASSERT_TRUE(readTrace(Path, T, Error)) << Error;
  EXPECT_NE(T.Problem.find("byte 678: a region record of a site that is not "
                           "a region or loop (site 7 ('model'))"),
            std::string::npos)
      << T.Problem;
  for (const Event &E : T.Events) {
    SiteKind K = T.site(E.Site).Kind;
    if (E.Kind == EventKind::Region)
      EXPECT_TRUE(K == SiteKind::Region || K == SiteKind::Loop) << E.Site;
    if (E.Kind == EventKind::Watch)
      EXPECT_TRUE(K == SiteKind::Watch || K == SiteKind::State ||
                  K == SiteKind::Api)
          << E.Site;
  }
  std::vector<Trace> One;
  One.push_back(std::move(T));
  std::FILE *Null = std::fopen("/dev/null", "w");
  ASSERT_NE(Null, nullptr);
  printSummary(One, Null);
  std::fclose(Null);
}

namespace {

/// A trace in the file format of docs/trace-format.md, block by block.
struct Bytes {
  std::string S{"SONDETRC\x01\x00\x02\x00\x00\x00\x00\x00", 16};
  static std::string varint(uint64_t V) {
    std::string R;
    do {
      R += char((V & 0x7f) | (V >= 0x80 ? 0x80 : 0));
      V >>= 7;
    } while (V);
    return R;
  }
  static std::string str(const std::string &X) { return varint(X.size()) + X; }
  Bytes &block(int Type, const std::string &Payload) {
    S += char(Type);
    for (int I = 0; I < 4; ++I)
      S += char((Payload.size() >> (8 * I)) & 0xff);
    S += Payload;
    return *this;
  }
  Bytes &site(unsigned Id, int Kind, const std::string &Name) {
    return block(4, varint(Id) + char(Kind) + char(0) + varint(1) + varint(0) +
                        str("user") + str(Name) + str("f.cpp") + str("main") +
                        str("") + str(""));
  }
  Bytes &thread(unsigned Index) {
    return block(5, varint(Index) + varint(100 + Index) + str("t"));
  }
  Trace read() const {
    Trace T;
    std::string Error;
    EXPECT_TRUE(readTraceBytes(reinterpret_cast<const uint8_t *>(S.data()),
                               S.size(), "crafted.sonde", T, Error))
        << Error;
    return T;
  }
};

/// An events block of thread `Thread` with one integer watch of `Site`.
std::string watchOf(unsigned Thread, unsigned Site) {
  return Bytes::varint(Thread) + Bytes::varint(1000) +
         Bytes::varint(Site << 4 | 6) + Bytes::varint(0) + "\x03\x02";
}

} // namespace

TEST(TraceCorpus, EveryIndexIsCheckedAgainstItsTable) {
  // Sound: a watch site, its thread, one watch.
  Bytes Good;
  Good.site(1, 3, "loss").thread(0).block(6, watchOf(0, 1));
  Trace T = Good.read();
  EXPECT_EQ(T.Problem.find("corrupt"), std::string::npos) << T.Problem;
  ASSERT_EQ(T.Events.size(), 1u);

  struct Case {
    Bytes B;
    const char *Says;
    size_t Kept = 0; ///< records still read
  };
  std::vector<Case> Cases(5);
  // A thread no Thread block announced.
  Cases[0].B.site(1, 3, "loss").thread(0).block(6, watchOf(7, 1));
  Cases[0].Says = "events block of thread 7, which no Thread block announced";
  // A site no Site block defined.
  Cases[1].B.site(1, 3, "loss").thread(0).block(6, watchOf(0, 2));
  Cases[1].Says = "a record of a site no Site block defined (site 2)";
  // A site defined twice, the second time as a region.
  Cases[2]
      .B.site(1, 3, "loss")
      .site(1, 1, "loss")
      .thread(0)
      .block(6, watchOf(0, 1));
  Cases[2].Says = "site 1 defined twice";
  Cases[2].Kept = 1; // the first description stands
  // An object whose key no String block defined.
  Cases[3]
      .B.site(1, 3, "loss")
      .thread(0)
      .block(6, Bytes::varint(0) + Bytes::varint(1000) +
                    Bytes::varint(1 << 4 | 6) + Bytes::varint(0) +
                    "\x08\x01\x05\x00");
  Cases[3].Says = "a watch whose value cannot be decoded (site 1 ('loss'))";
  // An instant record of a watch site.
  Cases[4]
      .B.site(1, 3, "loss")
      .thread(0)
      .block(6, Bytes::varint(0) + Bytes::varint(1000) +
                    Bytes::varint(1 << 4 | 3) + Bytes::varint(0));
  Cases[4].Says = "an instant record of a non-instant site (site 1 ('loss'))";
  for (const Case &C : Cases) {
    Trace Bad = C.B.read();
    EXPECT_NE(Bad.Problem.find(C.Says), std::string::npos)
        << "expected: " << C.Says << "\ngot: " << Bad.Problem;
    EXPECT_EQ(Bad.Events.size(), C.Kept) << C.Says;
  }
}

TEST(TraceCorpus, TimesAfter2116AreHeldAndSaid) {
  using B = Bytes;
  const uint64_t Late = uint64_t(MaxTimeNs) + 1;
  // A process start and a clock anchor past MaxTimeNs: refused, said.
  Bytes Start;
  Start.block(1, B::varint(7) + B::varint(1) + B::varint(0) + B::str("h") +
                     B::str("p") + B::varint(Late));
  Trace T = Start.read();
  EXPECT_NE(T.Problem.find("a process start time after the year 2116"),
            std::string::npos)
      << T.Problem;
  EXPECT_EQ(T.Process.StartNs, MaxTimeNs);
  Bytes Anchor;
  Anchor.block(2, B::varint(0) + B::varint(Late) + B::varint(0));
  T = Anchor.read();
  EXPECT_NE(T.Problem.find("a clock anchor after the year 2116"),
            std::string::npos)
      << T.Problem;
  EXPECT_TRUE(T.Anchors.empty());
  // Sound anchors whose line runs past 2116 by the time of a record: the
  // record is held at MaxTimeNs, and the reader says how many were.
  Bytes Steep;
  Steep.block(2, B::varint(0) + B::varint(MaxTimeNs - 10) + B::varint(0))
      .block(2, B::varint(1) + B::varint(MaxTimeNs) + B::varint(0))
      .site(1, 3, "loss")
      .thread(0)
      .block(6, watchOf(0, 1));
  T = Steep.read();
  EXPECT_NE(T.Problem.find("times before 1970 or after 2116 (a corrupt clock "
                           "anchor or timestamp) were held at those bounds"),
            std::string::npos)
      << T.Problem;
  ASSERT_EQ(T.Events.size(), 1u);
  EXPECT_EQ(T.Events[0].Ts, MaxTimeNs);
}

TEST(TraceCorpus, ASiteIdAbove32BitsIsAnUndefinedSite) {
  // Checked as the file gives it, not cut to 32 bits first: an events
  // record and an unfinished region name the id they hold.
  const uint64_t Id = uint64_t(1) << 33;
  Bytes Record;
  Record.site(1, 3, "loss")
      .thread(0)
      .block(6, Bytes::varint(0) + Bytes::varint(1000) +
                    Bytes::varint(Id << 4 | 6) + Bytes::varint(0) + "\x03\x02");
  Trace T = Record.read();
  EXPECT_NE(T.Problem.find("a record of a site no Site block defined (site "
                           "8589934592)"),
            std::string::npos)
      << T.Problem;
  EXPECT_TRUE(T.Events.empty());
  Bytes Open;
  Open.site(1, 1, "step")
      .thread(0)
      .block(8, Bytes::varint(0) + Bytes::varint(Id) + Bytes::varint(1000) +
                    Bytes::varint(0));
  T = Open.read();
  EXPECT_NE(T.Problem.find("a record of a site no Site block defined (site "
                           "8589934592)"),
            std::string::npos)
      << T.Problem;
  EXPECT_TRUE(T.Events.empty());
}
