//===- WorldTest.cpp - Rank, local rank, world size and launcher ----------===//
//
// runtime/recorder/World.h: which launcher's variables a process takes its
// place in the job from, and the one line said for each value refused or
// in disagreement. Then the trace's side: a 1.2 Process block (no such
// fields) and a 1.3 one read back, and a real run under mpirun's variables.
//
//===----------------------------------------------------------------------===//

#include "World.h"
#include "TraceFormat.h"
#include "sonde/trace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace sonde::rt::env;

namespace {

struct Detected {
  World W;
  std::vector<std::string> Notes;
};

Detected detect(const std::map<std::string, std::string> &Env) {
  Detected D;
  WorldNote Notes[MaxWorldNotes];
  unsigned N = detectWorld(
      [&](const char *Var) -> const char * {
        auto It = Env.find(Var);
        return It == Env.end() ? nullptr : It->second.c_str();
      },
      D.W, Notes);
  for (unsigned I = 0; I < N; ++I)
    D.Notes.push_back(Notes[I].Text);
  return D;
}

TEST(World, NoLauncherIsRankZeroOfAnUnknownWorld) {
  Detected D = detect({});
  EXPECT_EQ(D.W.Rank, 0u);
  EXPECT_EQ(D.W.LocalRank, Unknown);
  EXPECT_EQ(D.W.Size, Unknown);
  EXPECT_STREQ(D.W.Launcher, "");
  EXPECT_TRUE(D.Notes.empty());
}

TEST(World, EachLauncherGivesItsThreeFields) {
  struct Case {
    std::map<std::string, std::string> Env;
    const char *Launcher;
    uint64_t Rank, Local, Size;
  } Cases[] = {
      {{{"RANK", "3"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}},
       "env",
       3,
       1,
       8},
      {{{"OMPI_COMM_WORLD_RANK", "2"},
        {"OMPI_COMM_WORLD_LOCAL_RANK", "2"},
        {"OMPI_COMM_WORLD_SIZE", "4"}},
       "openmpi",
       2,
       2,
       4},
      {{{"PMI_RANK", "5"}, {"PMI_SIZE", "6"}}, "pmi", 5, Unknown, 6},
      {{{"SLURM_PROCID", "7"}, {"SLURM_LOCALID", "3"}, {"SLURM_NTASKS", "16"}},
       "slurm",
       7,
       3,
       16},
      // A rank alone: the rest is not known.
      {{{"RANK", "1"}}, "env", 1, Unknown, Unknown},
  };
  for (const Case &C : Cases) {
    Detected D = detect(C.Env);
    EXPECT_STREQ(D.W.Launcher, C.Launcher);
    EXPECT_EQ(D.W.Rank, C.Rank) << C.Launcher;
    EXPECT_EQ(D.W.LocalRank, C.Local) << C.Launcher;
    EXPECT_EQ(D.W.Size, C.Size) << C.Launcher;
    EXPECT_TRUE(D.Notes.empty()) << D.Notes[0];
  }
}

TEST(World, AgreeingLaunchersSayNothing) {
  // srun inside an allocation that mpirun also described, or torchrun
  // under Slurm: the same numbers twice.
  Detected D = detect({{"RANK", "2"},
                       {"WORLD_SIZE", "4"},
                       {"SLURM_PROCID", "2"},
                       {"SLURM_NTASKS", "4"}});
  EXPECT_STREQ(D.W.Launcher, "env");
  EXPECT_TRUE(D.Notes.empty());
}

TEST(World, ANonNumberIsRefusedInOneLineAndTheNextLauncherUsed) {
  Detected D = detect({{"RANK", "two"},
                       {"OMPI_COMM_WORLD_RANK", "2"},
                       {"OMPI_COMM_WORLD_SIZE", "4"}});
  EXPECT_STREQ(D.W.Launcher, "openmpi");
  EXPECT_EQ(D.W.Rank, 2u);
  EXPECT_EQ(D.W.Size, 4u);
  ASSERT_EQ(D.Notes.size(), 1u);
  EXPECT_EQ(D.Notes[0], "sonde: RANK=two is not a rank (a whole number from 0 "
                        "to 2147483647); using OMPI_COMM_WORLD_RANK=2");
}

TEST(World, BadValuesOfEveryKind) {
  struct Case {
    const char *Var, *Value, *Line;
  } Cases[] = {
      {"RANK", "-1",
       "sonde: RANK=-1 is not a rank (a whole number from 0 to 2147483647); "
       "using 0"},
      {"RANK", "99999999999999999999",
       "sonde: RANK=99999999999999999999 is not a rank"},
      {"SLURM_PROCID", "3x", "sonde: SLURM_PROCID=3x is not a rank"},
      {"RANK", "", "sonde: RANK= is not a rank"},
      {"RANK", " 1", "sonde: RANK= 1 is not a rank"},
  };
  for (const Case &C : Cases) {
    Detected D = detect({{C.Var, C.Value}});
    EXPECT_EQ(D.W.Rank, 0u);
    EXPECT_STREQ(D.W.Launcher, "");
    ASSERT_EQ(D.Notes.size(), 1u) << C.Value;
    EXPECT_EQ(D.Notes[0].rfind(C.Line, 0), 0u) << D.Notes[0];
    EXPECT_NE(D.Notes[0].find("; using 0"), std::string::npos) << D.Notes[0];
  }
  // A bad local rank or size of the launcher used: the rank stays, the
  // field is unknown, and the line says so.
  Detected D =
      detect({{"RANK", "1"}, {"LOCAL_RANK", "x"}, {"WORLD_SIZE", "0"}});
  EXPECT_EQ(D.W.Rank, 1u);
  EXPECT_EQ(D.W.LocalRank, Unknown);
  EXPECT_EQ(D.W.Size, Unknown);
  ASSERT_EQ(D.Notes.size(), 2u);
  EXPECT_EQ(D.Notes[0], "sonde: LOCAL_RANK=x is not a local rank (a whole "
                        "number from 0 to 2147483647); using no local rank");
  EXPECT_EQ(D.Notes[1], "sonde: WORLD_SIZE=0 is not a world size (a whole "
                        "number from 1 to 2147483647); using no world size");
}

TEST(World, DisagreementsAreSaidWithWhatIsUsed) {
  Detected D = detect({{"RANK", "1"},
                       {"WORLD_SIZE", "4"},
                       {"OMPI_COMM_WORLD_RANK", "3"},
                       {"OMPI_COMM_WORLD_SIZE", "8"},
                       {"SLURM_PROCID", "1"}});
  EXPECT_STREQ(D.W.Launcher, "env");
  EXPECT_EQ(D.W.Rank, 1u);
  EXPECT_EQ(D.W.Size, 4u);
  ASSERT_EQ(D.Notes.size(), 2u);
  EXPECT_EQ(D.Notes[0], "sonde: OMPI_COMM_WORLD_RANK=3 disagrees with RANK=1; "
                        "using RANK=1");
  EXPECT_EQ(D.Notes[1], "sonde: OMPI_COMM_WORLD_SIZE=8 disagrees with "
                        "WORLD_SIZE=4; using WORLD_SIZE=4");
}

TEST(World, ARankBeyondItsWorldLeavesTheSizeUnknown) {
  Detected D = detect({{"RANK", "5"}, {"WORLD_SIZE", "4"}});
  EXPECT_EQ(D.W.Rank, 5u);
  EXPECT_EQ(D.W.Size, Unknown);
  ASSERT_EQ(D.Notes.size(), 1u);
  EXPECT_EQ(D.Notes[0], "sonde: RANK=5 is not below WORLD_SIZE=4; using rank "
                        "5 and no world size");
}

TEST(World, ALongValueIsShownCut) {
  std::string Long(300, '7');
  Detected D = detect({{"RANK", Long}});
  ASSERT_EQ(D.Notes.size(), 1u);
  EXPECT_NE(D.Notes[0].find(std::string(80, '7') + "... is not a rank"),
            std::string::npos)
      << D.Notes[0];
}

// --- the trace's side ------------------------------------------------------

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

/// A file of format 1.`Minor` whose Process block ends after the boot id
/// and then holds `Tail`.
bool readFile(uint16_t Minor, const std::string &Tail, sonde::trace::Trace &T,
              std::string &Error) {
  using sonde::format::Block;
  std::string F(sonde::format::Magic, 8);
  F += std::string{1, 0, static_cast<char>(Minor), 0, 0, 0, 0, 0};
  std::string P;
  putNum(P, 42);
  putNum(P, 1);
  putNum(P, 3); // rank
  putStr(P, "host");
  putStr(P, "prog");
  putNum(P, 1700000000000000000);
  putStr(P, "boot");
  P += Tail;
  block(F, Block::Process, P);
  P.clear();
  putStr(P, "exit");
  putNum(P, 0);
  block(F, Block::End, P);
  char Path[] = "/tmp/sonde-world-XXXXXX";
  int Fd = mkstemp(Path);
  if (Fd < 0)
    return false;
  close(Fd);
  std::ofstream(Path, std::ios::binary) << F;
  bool Ok = sonde::trace::readTrace(Path, T, Error);
  std::remove(Path);
  return Ok;
}

TEST(WorldFormat, AOneTwoFileHasNoWorld) {
  sonde::trace::Trace T;
  std::string Error;
  ASSERT_TRUE(readFile(2, "", T, Error)) << Error;
  EXPECT_EQ(T.Process.Rank, 3);
  EXPECT_EQ(T.Process.BootId, "boot");
  EXPECT_EQ(T.Process.LocalRank, -1);
  EXPECT_EQ(T.Process.WorldSize, -1);
  EXPECT_EQ(T.Process.Launcher, "");
  EXPECT_TRUE(T.Process.Ended);
}

TEST(WorldFormat, AOneThreeFileHasItsWorld) {
  std::string Tail;
  putNum(Tail, sonde::format::worldField(1)); // local rank 1
  putNum(Tail, sonde::format::worldField(4)); // of 4
  putStr(Tail, "openmpi");
  sonde::trace::Trace T;
  std::string Error;
  ASSERT_TRUE(readFile(3, Tail, T, Error)) << Error;
  EXPECT_EQ(T.Process.LocalRank, 1);
  EXPECT_EQ(T.Process.WorldSize, 4);
  EXPECT_EQ(T.Process.Launcher, "openmpi");
  EXPECT_TRUE(T.Process.Ended);

  // Not given: written as 0.
  Tail.clear();
  putNum(Tail, sonde::format::worldField(Unknown));
  putNum(Tail, sonde::format::worldField(Unknown));
  putStr(Tail, "");
  ASSERT_TRUE(readFile(3, Tail, T, Error)) << Error;
  EXPECT_EQ(T.Process.LocalRank, -1);
  EXPECT_EQ(T.Process.WorldSize, -1);

  // Fields a later 1.x appends after these are skipped.
  Tail.clear();
  putNum(Tail, 1);
  putNum(Tail, 3);
  putStr(Tail, "slurm");
  putStr(Tail, "a field of format 1.4");
  ASSERT_TRUE(readFile(4, Tail, T, Error)) << Error;
  EXPECT_EQ(T.Process.LocalRank, 0);
  EXPECT_EQ(T.Process.WorldSize, 2);
  EXPECT_EQ(T.Process.Launcher, "slurm");
}

TEST(WorldFormat, AWorldBeyondTheBoundIsCorrupt) {
  std::string Tail;
  putNum(Tail, 1);
  putNum(Tail, uint64_t(1) << 40);
  putStr(Tail, "env");
  sonde::trace::Trace T;
  std::string Error;
  readFile(3, Tail, T, Error);
  EXPECT_NE(T.Problem.find("world size"), std::string::npos) << T.Problem;
}

TEST(WorldFormat, ARealRunUnderMpirunVariablesRecordsThem) {
  char Dir[] = "/tmp/sonde-worldrun-XXXXXX";
  ASSERT_TRUE(mkdtemp(Dir));
  std::string Cmd = std::string("SONDE_OUTPUT=") + Dir +
                    " RANK= OMPI_COMM_WORLD_RANK=2 "
                    "OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_SIZE=3 " +
                    SONDE_EXIT_PATHS + " return 10 > /dev/null 2> " + Dir +
                    "/stderr";
  ASSERT_EQ(std::system(Cmd.c_str()), 0);
  std::vector<std::string> Files;
  std::string Error;
  ASSERT_TRUE(sonde::trace::expandInputs({Dir}, Files, Error)) << Error;
  ASSERT_EQ(Files.size(), 1u);
  sonde::trace::Trace T;
  ASSERT_TRUE(sonde::trace::readTrace(Files[0], T, Error)) << Error;
  EXPECT_EQ(T.VersionMinor, sonde::format::Minor);
  EXPECT_EQ(T.Process.Rank, 2);
  EXPECT_EQ(T.Process.LocalRank, 0);
  EXPECT_EQ(T.Process.WorldSize, 3);
  EXPECT_EQ(T.Process.Launcher, "openmpi");
  EXPECT_NE(Files[0].find("-2-"), std::string::npos) << Files[0];
  // The empty RANK is refused in one line that says what was used.
  std::string Stderr;
  std::getline(std::ifstream(std::string(Dir) + "/stderr"), Stderr);
  EXPECT_EQ(Stderr, "sonde: RANK= is not a rank (a whole number from 0 to "
                    "2147483647); using OMPI_COMM_WORLD_RANK=2");
  std::remove(Files[0].c_str());
  std::remove((std::string(Dir) + "/stderr").c_str());
  rmdir(Dir);
}

} // namespace
