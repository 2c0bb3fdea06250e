//===- FollowerTest.cpp - Following trace files as they grow --------------===//
//
// live/Follower.h against real traces of the fuzz corpus written out a
// piece at a time, as a writer would (and worse: cut anywhere, not only
// between blocks): every record comes out exactly once, a torn tail is
// left for the next poll without an error, a file that appears in a
// followed directory later is followed, a file that is not a trace is
// said once and never crashes the follower. And the --fail-on grammar
// (live/Conditions.h), each error at its column.
//
//===----------------------------------------------------------------------===//

#include "live/Follower.h"
#include "live/Conditions.h"
#include "sonde/trace.h"

#include "TraceFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <unistd.h>

using namespace sonde::trace;
using namespace sonde::trace::live;

namespace {

std::string corpusFile(const std::string &Name) {
  std::ifstream In(std::string(SONDE_FUZZ_CORPUS "/trace/") + Name,
                   std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(In)), {});
}

/// A record as both readers give it, times aside (a follower that waited
/// too long for the second clock anchor converts ticks with one).
using Key = std::tuple<uint32_t, int, uint32_t, uint32_t, std::string>;

std::string valueText(const Value &V) {
  if (V.isNumber())
    return std::to_string(V.number());
  if (V.K == Value::Kind::String)
    return V.str();
  return "kind " + std::to_string(static_cast<int>(V.K));
}

Key keyOf(const Event &E) {
  return {E.Site, static_cast<int>(E.Kind), E.Thread, E.Level,
          E.Kind == EventKind::Watch ? valueText(E.V) : std::string()};
}

struct Collect : LiveSink {
  std::vector<Key> Keys;
  int Started = 0, Ended = 0;
  void started(const FileFollower &) override { ++Started; }
  void event(const FileFollower &, const Event &E) override {
    Keys.push_back(keyOf(E));
  }
  void ended(const FileFollower &) override { ++Ended; }
};

/// The records the reader gives for the whole file, sorted.
std::vector<Key> readWhole(const std::string &Path) {
  Trace T;
  std::string Error;
  EXPECT_TRUE(readTrace(Path, T, Error)) << Error;
  std::vector<Key> Keys;
  for (const Event &E : T.Events)
    if (!E.Unfinished) // written at the end, as no Events block
      Keys.push_back(keyOf(E));
  std::sort(Keys.begin(), Keys.end());
  return Keys;
}

class TempDir {
public:
  TempDir() {
    char Tmpl[] = "/tmp/sonde-follower-XXXXXX";
    Path = mkdtemp(Tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + Path + "'").c_str()); }
  std::string Path;
};

/// The end of the first block (the Process block) of a trace's bytes.
size_t firstBlockEnd(const std::string &Bytes) {
  size_t At = sonde::format::FileHeaderSize;
  uint32_t Len = 0;
  for (int I = 0; I < 4; ++I)
    Len |= static_cast<uint32_t>(static_cast<uint8_t>(Bytes[At + 1 + I]))
           << (8 * I);
  return At + sonde::format::BlockHeaderSize + Len;
}

void append(const std::string &Path, const std::string &Bytes) {
  std::ofstream Out(Path, std::ios::binary | std::ios::app);
  Out << Bytes;
}

} // namespace

TEST(Follower, AFileWrittenByteByByteGivesEachRecordOnce) {
  for (const char *Name : {"every-kind.sonde", "threads.sonde"}) {
    std::string Bytes = corpusFile(Name);
    ASSERT_FALSE(Bytes.empty()) << Name;
    TempDir D;
    std::string Path = D.Path + "/t.sonde";
    FileFollower F(Path);
    Collect C;
    EXPECT_EQ(F.poll(C), 0u); // not there yet: no error
    EXPECT_FALSE(F.failed());
    for (char B : Bytes) {
      append(Path, std::string(1, B));
      F.poll(C);
      ASSERT_FALSE(F.failed()) << Name << ": " << F.problem();
    }
    EXPECT_TRUE(F.ended()) << Name;
    EXPECT_EQ(C.Started, 1);
    EXPECT_EQ(C.Ended, 1);
    EXPECT_EQ(F.offset(), Bytes.size());
    std::sort(C.Keys.begin(), C.Keys.end());
    EXPECT_EQ(C.Keys, readWhole(Path)) << Name;
    EXPECT_EQ(F.poll(C), 0u); // nothing after the End block
  }
}

TEST(Follower, ATornTailIsLeftForTheNextPoll) {
  std::string Bytes = corpusFile("every-kind.sonde");
  TempDir D;
  std::string Path = D.Path + "/t.sonde";
  // All but the End block's last bytes: every other block is whole.
  append(Path, Bytes.substr(0, Bytes.size() - 3));
  FileFollower F(Path);
  Collect C;
  F.poll(C);
  EXPECT_FALSE(F.failed());
  EXPECT_TRUE(F.problem().empty()) << F.problem();
  EXPECT_FALSE(F.ended());
  EXPECT_LT(F.offset(), Bytes.size() - 3);
  size_t Before = C.Keys.size();
  F.poll(C); // still torn: nothing new, still no error
  EXPECT_EQ(C.Keys.size(), Before);
  EXPECT_FALSE(F.failed());
  append(Path, Bytes.substr(Bytes.size() - 3));
  F.poll(C);
  EXPECT_TRUE(F.ended());
  std::sort(C.Keys.begin(), C.Keys.end());
  EXPECT_EQ(C.Keys, readWhole(Path));
}

TEST(Follower, ABlockAppendedLaterIsRead) {
  std::string Bytes = corpusFile("threads.sonde");
  TempDir D;
  std::string Path = D.Path + "/t.sonde";
  size_t Half = Bytes.size() / 2;
  append(Path, Bytes.substr(0, Half));
  FileFollower F(Path);
  Collect C;
  F.poll(C);
  uint64_t At = F.offset();
  EXPECT_GT(At, 0u);
  EXPECT_LE(At, Half);
  append(Path, Bytes.substr(Half));
  EXPECT_GT(F.poll(C), 0u);
  EXPECT_TRUE(F.ended());
  EXPECT_GT(F.offset(), At);
}

TEST(Follower, AFileThatAppearsInADirectoryIsFollowed) {
  std::string Bytes = corpusFile("every-kind.sonde");
  TempDir D;
  Follower F({D.Path});
  Collect C;
  F.poll(C);
  EXPECT_TRUE(F.files().empty());
  EXPECT_FALSE(F.allEnded()); // nothing followed yet is not "all ended"
  size_t First = firstBlockEnd(Bytes);
  append(D.Path + "/first-0-1.sonde", Bytes.substr(0, First + 2));
  append(D.Path + "/notes.txt", "not a trace, not followed");
  F.poll(C);
  ASSERT_EQ(F.files().size(), 1u);
  EXPECT_EQ(C.Started, 1);
  EXPECT_FALSE(F.allEnded());
  append(D.Path + "/first-0-1.sonde", Bytes.substr(First + 2));
  append(D.Path + "/second-1-2.sonde", Bytes); // a rank that started late
  F.poll(C);
  EXPECT_EQ(F.files().size(), 2u);
  EXPECT_EQ(C.Started, 2);
  EXPECT_EQ(C.Ended, 2);
  EXPECT_TRUE(F.allEnded());
  EXPECT_TRUE(F.takeNotes().empty());
}

TEST(Follower, AnEarlierRunsFinishedTracesAreNotFollowed) {
  std::string Bytes = corpusFile("every-kind.sonde");
  TempDir D;
  append(D.Path + "/old-0-1.sonde", Bytes); // ended: skipped
  append(D.Path + "/running-0-2.sonde", Bytes.substr(0, Bytes.size() - 3));
  Follower F({D.Path});
  Collect C;
  F.poll(C);
  ASSERT_EQ(F.files().size(), 1u);
  EXPECT_EQ(F.files()[0]->path(), D.Path + "/running-0-2.sonde");
  std::vector<std::string> Notes = F.takeNotes();
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_NE(Notes[0].find("1 trace of a process that had ended before"),
            std::string::npos)
      << Notes[0];
  EXPECT_FALSE(F.allEnded()); // the old one does not end the command
  EXPECT_EQ(C.Started, 1);    // the running one from its first byte
  // A file that appears later is followed even when it has ended already
  // (a short process, all of it between two looks).
  append(D.Path + "/short-0-3.sonde", Bytes);
  append(D.Path + "/running-0-2.sonde", Bytes.substr(Bytes.size() - 3));
  F.poll(C);
  EXPECT_EQ(F.files().size(), 2u);
  EXPECT_EQ(C.Ended, 2);
  EXPECT_TRUE(F.allEnded());
  // Named as a file, a finished trace is followed.
  Follower Named({D.Path + "/old-0-1.sonde"});
  Collect N;
  Named.poll(N);
  EXPECT_EQ(N.Ended, 1);
  EXPECT_TRUE(Named.allEnded());
}

TEST(Follower, AFileCutBackAfterAFailedWriteIsReadOnFromTheCut) {
  std::string Bytes = corpusFile("every-kind.sonde");
  TempDir D;
  std::string Path = D.Path + "/t.sonde";
  append(Path, Bytes.substr(0, Bytes.size() - 3));
  FileFollower F(Path);
  Collect C;
  F.poll(C);
  size_t First = firstBlockEnd(Bytes);
  ASSERT_GT(F.offset(), First);
  // The writer cuts back to a block boundary (TraceFile.cpp, writeFailed).
  ASSERT_EQ(truncate(Path.c_str(), static_cast<off_t>(First)), 0);
  F.poll(C);
  EXPECT_FALSE(F.failed());
  EXPECT_NE(F.problem().find("cut back from byte"), std::string::npos)
      << F.problem();
  EXPECT_EQ(F.offset(), First);
}

TEST(Follower, AFileThatIsNotATraceIsSaidOnce) {
  TempDir D;
  std::string Path = D.Path + "/bad.sonde";
  append(Path, "this is not a sonde trace, only text");
  // Shorter than a header: its first bytes are enough to tell.
  append(D.Path + "/short.sonde", "text");
  Follower F({D.Path});
  Collect C;
  F.poll(C);
  std::vector<std::string> Notes = F.takeNotes();
  ASSERT_EQ(Notes.size(), 2u);
  for (const std::string &N : Notes)
    EXPECT_NE(N.find("not a sonde trace"), std::string::npos) << N;
  F.poll(C);
  EXPECT_TRUE(F.takeNotes().empty()); // once
  EXPECT_TRUE(F.files()[0]->failed());
  EXPECT_TRUE(F.allEnded()); // nothing more to wait for
}

TEST(Follower, AnUnknownBlockTypeStopsTheFileWithItsOffset) {
  std::string Bytes = corpusFile("every-kind.sonde");
  TempDir D;
  std::string Path = D.Path + "/t.sonde";
  // The header, then a block of a type no format has.
  append(Path, Bytes.substr(0, sonde::format::FileHeaderSize) +
                   std::string("\x7f\x01\x00\x00\x00x", 6));
  FileFollower F(Path);
  Collect C;
  F.poll(C);
  EXPECT_TRUE(F.failed());
  EXPECT_NE(F.problem().find("byte 16: unknown block type 127"),
            std::string::npos)
      << F.problem();
}

TEST(LiveConditions, TheTwoFormsParse) {
  Condition C;
  ConditionError E;
  ASSERT_TRUE(parseCondition("loss: nan|inf", C, E)) << E.Message;
  EXPECT_EQ(C.Name, "loss");
  EXPECT_TRUE(C.holds(NAN));
  EXPECT_TRUE(C.holds(-INFINITY));
  EXPECT_FALSE(C.holds(1.5));
  ASSERT_TRUE(parseCondition("  metric/loss:nan ", C, E)) << E.Message;
  EXPECT_TRUE(C.holds(NAN));
  EXPECT_FALSE(C.holds(INFINITY));
  SiteInfo S;
  S.Category = "metric";
  S.Name = "loss";
  EXPECT_TRUE(C.names(S));
  S.Category = "other";
  EXPECT_FALSE(C.names(S));
  ASSERT_TRUE(parseCondition("accuracy < 0.5", C, E)) << E.Message;
  EXPECT_TRUE(C.holds(0.4));
  EXPECT_FALSE(C.holds(0.5));
  EXPECT_FALSE(C.holds(NAN));
  ASSERT_TRUE(parseCondition("loss>=1e3", C, E)) << E.Message;
  EXPECT_TRUE(C.holds(1000));
}

TEST(LiveConditions, EveryBadStringIsRefusedAtItsColumn) {
  struct Case {
    const char *Text;
    size_t Column;
    const char *Says;
  } Cases[] = {
      {"", 0, "expected a watch name"},
      {": nan", 0, "expected a watch name"},
      {"loss", 4, "expected ':'"},
      {"loss: nann", 6, "'nann' is not nan or inf"},
      {"loss: nan|", 10, "expected nan or inf"},
      {"loss: nan inf", 10, "expected '|'"},
      {"loss = 3", 5, "expected ':' or a comparison"},
      {"loss <", 6, "expected a number"},
      {"loss < abc", 7, "expected a finite number"},
      {"loss < nan", 7, "expected a finite number"},
      {"loss < 1e999", 7, "finite"},
      {"loss < 3 4", 9, "expected the end"},
      {"rate.speed < 100", 0, "is no training rate"},
      {"rate.compute: inf", 12, "a rate is never nan or inf"},
  };
  for (const Case &K : Cases) {
    Condition C;
    ConditionError E;
    EXPECT_FALSE(parseCondition(K.Text, C, E)) << K.Text;
    EXPECT_EQ(E.Column, K.Column) << K.Text << ": " << E.Message;
    EXPECT_NE(E.Message.find(K.Says), std::string::npos)
        << K.Text << ": " << E.Message;
    std::string R = E.render(K.Text);
    EXPECT_NE(R.find("\n  " + std::string(K.Column, ' ') + "^"),
              std::string::npos)
        << R;
  }
}
