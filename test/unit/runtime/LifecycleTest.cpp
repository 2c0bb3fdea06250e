//===- LifecycleTest.cpp - Every way out of a process keeps every record --===//
//
// Runs test/programs/ExitPaths.cpp in a fresh output directory, then reads
// the trace it left with the reader library and counts records exactly.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "Export.h"
#include "Json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <ostream>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace sonde::trace;

namespace {

struct RunResult {
  int Status = 0;
  std::string Dir;
  std::string Stdout;
  std::string Stderr;
  std::vector<std::string> Files;

  bool exited(int Code) const {
    return WIFEXITED(Status) && WEXITSTATUS(Status) == Code;
  }
  bool killedBy(int Sig) const {
    return WIFSIGNALED(Status) && WTERMSIG(Status) == Sig;
  }
  long produced() const {
    auto P = Stdout.find("produced ");
    return P == std::string::npos ? -1 : std::atol(Stdout.c_str() + P + 9);
  }
};

std::string makeTempDir() {
  char Template[] = "/tmp/sonde-test-XXXXXX";
  const char *D = mkdtemp(Template);
  return D ? D : "";
}

std::vector<std::string> traceFiles(const std::string &Dir) {
  std::vector<std::string> Files;
  std::string Error;
  expandInputs({Dir}, Files, Error);
  return Files;
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path);
  return std::string(std::istreambuf_iterator<char>(In),
                     std::istreambuf_iterator<char>());
}

/// Runs the exit-paths program in a fresh directory (its working directory
/// too); `Env` adds to the environment (SONDE_OUTPUT is that directory
/// unless `Env` sets it). `Setup` runs in the child before exec (switching
/// users, say).
RunResult run(std::vector<std::string> Args, std::vector<std::string> Env = {},
              void (*Setup)() = nullptr) {
  RunResult R;
  R.Dir = makeTempDir();
  std::string OutFile = R.Dir + "/stdout.txt";
  std::string ErrFile = R.Dir + "/stderr.txt";
  bool HasOutput = false;
  for (const std::string &E : Env)
    HasOutput |= E.rfind("SONDE_OUTPUT=", 0) == 0;
  if (!HasOutput)
    Env.push_back("SONDE_OUTPUT=" + R.Dir);
  std::vector<std::string> EnvAll;
  for (char **E = environ; *E; ++E)
    if (std::string(*E).rfind("SONDE_", 0) != 0)
      EnvAll.push_back(*E);
  EnvAll.insert(EnvAll.end(), Env.begin(), Env.end());
  Args.insert(Args.begin(), SONDE_EXIT_PATHS);
  std::vector<char *> Argv, Envp;
  for (auto &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  for (auto &E : EnvAll)
    Envp.push_back(E.data());
  Envp.push_back(nullptr);
  pid_t Pid = fork();
  if (Pid == 0) {
    int Out = open(OutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int Err = open(ErrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (Out < 0 || Err < 0 || dup2(Out, 1) < 0 || dup2(Err, 2) < 0 ||
        chdir(R.Dir.c_str()) != 0)
      _exit(126);
    if (Setup)
      Setup();
    execve(Argv[0], Argv.data(), Envp.data());
    _exit(127);
  }
  if (Pid > 0)
    waitpid(Pid, &R.Status, 0);
  R.Stdout = slurp(OutFile);
  R.Stderr = slurp(ErrFile);
  R.Files = traceFiles(R.Dir);
  return R;
}

/// How many times `Needle` occurs in `Text`.
size_t countOf(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos;
       At = Text.find(Needle, At + Needle.size()))
    ++N;
  return N;
}

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> L;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    L.push_back(Text.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  return L;
}

Trace readOne(const RunResult &R) {
  Trace T;
  std::string Error;
  EXPECT_EQ(R.Files.size(), 1u) << R.Dir;
  if (!R.Files.empty())
    EXPECT_TRUE(readTrace(R.Files[0], T, Error)) << Error;
  return T;
}

struct Counts {
  long Watches = 0, Regions = 0, Unfinished = 0, Instants = 0;
};

Counts count(const Trace &T) {
  Counts C;
  for (const Event &E : T.Events) {
    switch (E.Kind) {
    case EventKind::Watch:
      ++C.Watches;
      break;
    case EventKind::Region:
      ++C.Regions;
      C.Unfinished += E.Unfinished;
      break;
    case EventKind::Instant:
      ++C.Instants;
      break;
    }
  }
  return C;
}

/// The watch values of site "i", per thread, must be 0..N-1 in order.
void expectSequences(const Trace &T, long N, size_t Threads) {
  std::map<uint32_t, long> Next;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Watch || T.site(E.Site).Name != "i")
      continue;
    long &Expected = Next[E.Thread];
    ASSERT_EQ(E.V.K, Value::Kind::Int);
    ASSERT_EQ(E.V.I, Expected) << "thread " << E.Thread;
    ++Expected;
  }
  EXPECT_EQ(Next.size(), Threads);
  for (auto &KV : Next)
    EXPECT_EQ(KV.second, N) << "thread " << KV.first;
}

// --- Normal ends ---------------------------------------------------------

TEST(Lifecycle, ReturnFromMainKeepsEveryRecord) {
  RunResult R = run({"return", "100000"});
  ASSERT_TRUE(R.exited(0)) << R.Status;
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  EXPECT_TRUE(T.Process.Ended);
  EXPECT_EQ(T.Process.How, "exit");
  EXPECT_EQ(T.Process.Dropped, 0u);
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 100000);
  EXPECT_EQ(C.Regions, 1); // `outer`, closed by its destructor
  EXPECT_EQ(C.Unfinished, 0);
  expectSequences(T, 100000, 1);
}

TEST(Lifecycle, ExitRecordsOpenRegionsAsUnfinished) {
  RunResult R = run({"exit", "5000"});
  ASSERT_TRUE(R.exited(3)) << R.Status;
  Trace T = readOne(R);
  EXPECT_EQ(T.Process.How, "exit");
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 5000);
  EXPECT_EQ(C.Unfinished, 2); // outer and inner were open at exit()
  EXPECT_EQ(C.Regions, 2);
  for (const Event &E : T.Events)
    if (E.Unfinished && T.site(E.Site).Name == "inner")
      EXPECT_EQ(E.Level, 1u);
}

TEST(Lifecycle, RegionsDeeperThanTheStackLeaveTheDepthAsTheyFoundIt) {
  // 300 nested regions: the 128 a thread's shadow stack holds are recorded,
  // one per level; the ones deeper are not, and leave no trace on the
  // depth: the region after them is at level 0 again.
  RunResult R = run({"deep", "300"});
  ASSERT_TRUE(R.exited(0)) << R.Status;
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 301);
  EXPECT_EQ(C.Unfinished, 0);
  std::map<uint32_t, int> PerLevel;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Region)
      ++PerLevel[E.Level];
  ASSERT_EQ(PerLevel.size(), 128u);
  EXPECT_EQ(PerLevel.begin()->first, 0u);
  EXPECT_EQ(PerLevel.rbegin()->first, 127u);
  EXPECT_EQ(PerLevel[0], 2); // the outermost of the 300, and the one after
  EXPECT_EQ(PerLevel[127], 1);
}

TEST(Lifecycle, ArgsOfRegionsTooDeepToRecordAreNotLeftInForce) {
  // 300 nested regions with an arg each: the 128 recorded push and pop their
  // args; the ones deeper push none (they are not recorded), so the watch
  // after them all has no context. Said once on stderr.
  RunResult R = run({"deepargs", "300"});
  ASSERT_TRUE(R.exited(0)) << R.Status;
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  int Regions = 0;
  const Event *Last = nullptr;
  for (const Event &E : T.Events) {
    Regions += E.Kind == EventKind::Region;
    if (E.Kind == EventKind::Watch)
      Last = &E;
  }
  EXPECT_EQ(Regions, 128);
  ASSERT_NE(Last, nullptr);
  EXPECT_EQ(Last->V.I, -1);
  EXPECT_TRUE(Last->A->empty()) << Last->A->size() << " args in force";
  EXPECT_EQ(countOf(R.Stderr, "regions deeper than 128 are not recorded"), 1u)
      << R.Stderr;
  EXPECT_NE(R.Stderr.find("'stepped' (ExitPaths.cpp:4) opened 129 regions"),
            std::string::npos)
      << R.Stderr;
}

TEST(Lifecycle, RegionsThatDoNotNestAreClosedOnceAndSaid) {
  // A begin() left open inside `outer` ends with it; an `inner` Region that
  // the end() of a begin() around it closed records once. Both are said.
  RunResult R = run({"unended", "0"});
  ASSERT_TRUE(R.exited(0)) << R.Status;
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  std::map<std::string, int> Count;
  int64_t OuterEnd = -1, BeganEnd = -1;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Region)
      continue;
    const std::string &Name = T.site(E.Site).Name;
    ++Count[Name];
    if (Name == "outer")
      OuterEnd = E.Ts + E.Dur;
    if (Name == "began" && BeganEnd < 0)
      BeganEnd = E.Ts + E.Dur;
    EXPECT_FALSE(E.Unfinished) << Name;
  }
  EXPECT_EQ(Count["outer"], 1);
  EXPECT_EQ(Count["began"], 2);
  EXPECT_EQ(Count["inner"], 1);
  EXPECT_EQ(BeganEnd, OuterEnd); // closed with `outer`
  // The watch after both is outside every region: level 0.
  const Event *Last = nullptr;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Watch)
      Last = &E;
  ASSERT_NE(Last, nullptr);
  EXPECT_EQ(Last->Level, 0u);
  EXPECT_EQ(countOf(R.Stderr, "'began' (ExitPaths.cpp:5) was still open when "
                              "region 'outer' (ExitPaths.cpp:2) around it"),
            1u)
      << R.Stderr;
  EXPECT_EQ(countOf(R.Stderr, "'inner' (ExitPaths.cpp:3) was closed before its "
                              "own end"),
            1u)
      << R.Stderr;
}

TEST(Lifecycle, QuickExit) {
  RunResult R = run({"quick_exit", "5000"});
  ASSERT_TRUE(R.exited(4)) << R.Status;
  Trace T = readOne(R);
  EXPECT_EQ(T.Process.How, "quick_exit");
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 5000);
  EXPECT_EQ(C.Unfinished, 2);
}

TEST(Lifecycle, StaticDestructorsAreRecorded) {
  RunResult R = run({"static", "10"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 10);
  EXPECT_EQ(C.Instants, 1); // from ~Recorder, after main returned
}

// --- Signals and crashes ---------------------------------------------------

struct SignalCase {
  const char *Mode;
  int Signal;
  const char *How;
};

void PrintTo(const SignalCase &C, std::ostream *OS) { *OS << C.Mode; }

class SignalEnd : public ::testing::TestWithParam<SignalCase> {};

TEST_P(SignalEnd, FinishesTheTraceThenDiesAsWithoutSonde) {
  const SignalCase &Case = GetParam();
  RunResult R = run({Case.Mode, "20000"});
  ASSERT_TRUE(R.killedBy(Case.Signal)) << "status " << R.Status;
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  EXPECT_TRUE(T.Process.Ended);
  EXPECT_EQ(T.Process.How, Case.How);
  Counts C = count(T);
  EXPECT_EQ(C.Watches, 20000); // every record made before the signal
  EXPECT_EQ(C.Unfinished, 2);
  expectSequences(T, 20000, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Lifecycle, SignalEnd,
    ::testing::Values(SignalCase{"sigterm", SIGTERM, "signal:SIGTERM"},
                      SignalCase{"sigint", SIGINT, "signal:SIGINT"},
                      SignalCase{"segv", SIGSEGV, "crash:SIGSEGV"},
                      SignalCase{"abort", SIGABRT, "crash:SIGABRT"},
                      SignalCase{"bus", SIGBUS, "crash:SIGBUS"},
                      SignalCase{"fpe", SIGFPE, "crash:SIGFPE"}),
    [](const auto &Info) { return std::string(Info.param.Mode); });

// --- Threads, full rings -------------------------------------------------

TEST(Lifecycle, EightThreadsMillionRecordsEachBlockModeLosesNothing) {
  RunResult R = run({"threads", "1000000", "8"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  EXPECT_EQ(T.Process.Dropped, 0u);
  EXPECT_EQ(count(T).Watches, 8000000);
  expectSequences(T, 1000000, 8);
}

TEST(Lifecycle, ExitedThreadsAreDrained) {
  // Threads that ended long before main: their rings are recycled only once
  // drained, and nothing of theirs is lost.
  RunResult R = run({"threads", "50000", "3"}, {"SONDE_BUFFER_SIZE=64K"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  EXPECT_EQ(count(T).Watches, 150000);
  expectSequences(T, 50000, 3);
}

TEST(Lifecycle, DropModeAccountsForEveryRecord) {
  RunResult R = run({"drop", "500000", "4"},
                    {"SONDE_ON_FULL=drop", "SONDE_BUFFER_SIZE=64K"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  long Written = count(T).Watches;
  EXPECT_EQ(Written + static_cast<long>(T.Process.Dropped), R.produced());
  EXPECT_GT(T.Process.Dropped, 0u) << "a 64 KiB ring should overflow";
}

TEST(Lifecycle, MaxBytesCapsTheFileAndCountsTheRest) {
  // 400,000 watches encode to megabytes; past 256 KiB the writer counts
  // them as dropped. The trace stays complete and ends normally, and what
  // was written is, per thread, the first records in order.
  RunResult R = run({"threads", "200000", "2"}, {"SONDE_MAX_BYTES=256K"});
  ASSERT_TRUE(R.exited(0));
  ASSERT_EQ(R.Files.size(), 1u);
  struct stat St;
  ASSERT_EQ(stat(R.Files[0].c_str(), &St), 0);
  EXPECT_LE(St.st_size, (256 << 10) + (4 << 10));
  EXPECT_GE(St.st_size, 256 << 10);
  Trace T = readOne(R);
  EXPECT_TRUE(T.Complete) << T.Problem;
  EXPECT_EQ(T.Process.How, "exit");
  long Written = count(T).Watches;
  EXPECT_GT(Written, 0);
  EXPECT_EQ(Written + static_cast<long>(T.Process.Dropped), 400000);
  std::map<uint32_t, long> Next;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Watch || T.site(E.Site).Name != "i")
      continue;
    ASSERT_EQ(E.V.I, Next[E.Thread]++) << "thread " << E.Thread;
  }
}

TEST(Lifecycle, VariableSizeRecordsWrapTheRing) {
  RunResult R = run({"mixed", "20000"}, {"SONDE_BUFFER_SIZE=64K"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  long I = 0, J = 0;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Watch)
      continue;
    if (T.site(E.Site).Name == "mixed") {
      ASSERT_EQ(E.V.K, Value::Kind::String);
      ASSERT_EQ(E.V.str(), std::string(static_cast<size_t>(I % 251),
                                       static_cast<char>('a' + I % 26)))
          << I;
      ++I;
    } else {
      const Value *X = E.V.get("x"), *Y = E.V.get("y");
      ASSERT_TRUE(X && Y);
      ASSERT_EQ(X->F, double(J));
      ASSERT_EQ(Y->F, -double(J));
      ++J;
    }
  }
  EXPECT_EQ(I, 20000);
  EXPECT_EQ(J, 20000);
}

// --- fork ------------------------------------------------------------------

TEST(Lifecycle, ForkedChildWritesItsOwnFileWithoutTheParentsRecords) {
  RunResult R = run({"fork", "1000"});
  ASSERT_TRUE(R.exited(0)) << R.Stdout;
  ASSERT_EQ(R.Files.size(), 2u);
  uint64_t ChildPid = std::strtoull(
      R.Stdout.c_str() + R.Stdout.find("child ") + 6, nullptr, 10);
  std::map<uint64_t, Trace> ByPid;
  for (const std::string &F : R.Files) {
    Trace T;
    std::string Error;
    ASSERT_TRUE(readTrace(F, T, Error)) << Error;
    EXPECT_EQ(T.Process.How, "exit");
    // Parent: 1000 before the fork and 1000 after. Child: its own 2000.
    EXPECT_EQ(count(T).Watches, 2000) << F;
    ByPid[T.Process.Pid] = std::move(T);
  }
  ASSERT_EQ(ByPid.count(ChildPid), 1u);
  const Trace &Child = ByPid[ChildPid];
  for (auto &KV : ByPid)
    if (KV.first != ChildPid)
      EXPECT_EQ(Child.Process.PPid, KV.first);
}

// --- Values, args, control
// ----------------------------------------------------

TEST(Lifecycle, ValuesRoundTrip) {
  RunResult R = run({"values", "0"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  std::map<std::string, const Value *> V;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Watch && !V.count(T.site(E.Site).Name))
      V[T.site(E.Site).Name] = &E.V;
  ASSERT_EQ(V.size(), 11u);
  EXPECT_EQ(V["int"]->I, -42);
  EXPECT_EQ(V["uint"]->U, 18446744073709551615ull);
  EXPECT_EQ(V["double"]->F, 2.5);
  EXPECT_EQ(V["bool"]->K, Value::Kind::Bool);
  EXPECT_TRUE(V["bool"]->B);
  EXPECT_EQ(V["string"]->str(), "hello \"world\"\n");
  EXPECT_EQ(V["enum"]->I, 7);
  EXPECT_EQ(V["point"]->get("x")->F, 1.5);
  EXPECT_EQ(V["point"]->get("y")->F, -2.25);
  EXPECT_EQ(V["long_string"]->str(), std::string(256, 'x')); // capped
  EXPECT_EQ(V["cstr"]->str(), "literal");
  EXPECT_EQ(V["float"]->F, static_cast<double>(0.1f));
}

/// A value as JSON, with its kind: two values that read the same.
std::string kindAndJson(const Value &V) {
  TextOut T(nullptr);
  {
    JsonOut J(T);
    J.value(V);
  }
  return std::to_string(static_cast<int>(V.K)) + " " +
         std::string(T.buffer().data(), T.buffer().size());
}

// Inserted watches write a value through a type that records the same
// bytes (every signed integer as an int64_t, every object pointer as an
// address: WrittenAs in sonde/detail/Inserted.h), so that a file with many
// types instantiates few writers. A value of each type, watched as inserted
// code does (watchAt, watchAny) and by hand with its own type, reads back
// the same: the edges of each integer's range, floating types, pointers
// with every qualifier, a function pointer, strings, and a pointer type
// whose traits are the program's own (not an address).
TEST(Lifecycle, InsertedWatchesRecordWhatHandWrittenOnesDo) {
  RunResult R = run({"writtenas", "0"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  std::map<std::string, std::string> Hand, Inserted, Any;
  for (const Event &E : T.Events) {
    if (E.Kind != EventKind::Watch)
      continue;
    const std::string &Name = T.site(E.Site).Name;
    for (auto [Prefix, Into] :
         {std::pair{"hand_", &Hand}, {"inserted_", &Inserted}, {"any_", &Any}})
      if (Name.rfind(Prefix, 0) == 0)
        (*Into)[Name.substr(std::strlen(Prefix))] = kindAndJson(E.V);
  }
  ASSERT_EQ(Hand.size(), 29u);
  EXPECT_EQ(Inserted, Hand);
  EXPECT_EQ(Any, Hand);
  // What the hand-written watches read, so that a writer that drops values
  // on every path cannot pass.
  auto Kind = [](Value::Kind K) {
    return std::to_string(static_cast<int>(K)) + " ";
  };
  EXPECT_EQ(Hand["long"], Kind(Value::Kind::Int) + "-9223372036854775808");
  EXPECT_EQ(Hand["ulong"], Kind(Value::Kind::UInt) + "18446744073709551615");
  EXPECT_EQ(Hand["uchar"], Kind(Value::Kind::UInt) + "255");
  EXPECT_EQ(Hand["wchar"], Kind(Value::Kind::Int) + "-1");
  EXPECT_EQ(Hand["long_double"], Kind(Value::Kind::Float) + "1e+300");
  EXPECT_EQ(Hand["null_ptr"], Kind(Value::Kind::UInt) + "0");
  EXPECT_EQ(Hand["char_ptr"], Kind(Value::Kind::String) + "\"text\"");
  EXPECT_EQ(Hand["tagged_ptr"], Kind(Value::Kind::String) + "\"tagged\"");
  EXPECT_EQ(Hand["int_ptr"], Hand["void_ptr"]);
  EXPECT_NE(Hand["int_ptr"], Hand["null_ptr"]);
}

TEST(Lifecycle, ArgsApplyToTheirRegionAndContextToNestedRecords) {
  RunResult R = run({"values", "0"});
  Trace T = readOne(R);
  int Steps = 0, Losses = 0, Epochs = 0;
  for (const Event &E : T.Events) {
    const std::string &Name = T.site(E.Site).Name;
    std::map<std::string, Value> A(E.A->begin(), E.A->end());
    if (Name == "epoch") {
      ++Epochs;
      EXPECT_EQ(A.size(), 2u);
      EXPECT_EQ(A["tag"].str(), "train");
    } else if (Name == "step") {
      ++Steps;
      EXPECT_EQ(A.size(), 3u); // its own step, and the epoch's context
      EXPECT_EQ(A["step"].I, (Steps - 1) % 3);
      EXPECT_EQ(A["epoch"].I, (Steps - 1) / 3);
    } else if (Name == "loss") {
      ++Losses;
      EXPECT_EQ(A.size(), 2u) << "step's args are not context";
      EXPECT_EQ(A["epoch"].I, (Losses - 1) / 3);
      EXPECT_EQ(E.V.F, 1.0 / (1 + A["epoch"].I * 3 + (Losses - 1) % 3));
    }
  }
  EXPECT_EQ(Epochs, 2);
  EXPECT_EQ(Steps, 6);
  EXPECT_EQ(Losses, 6);
}

TEST(Lifecycle, ArgsOnlyWhereNamedGiveTheArgsOfSitesThatNameTheirOwn) {
  // sonde check and infer read a site's own args only
  // (TraceStream::setArgsOnlyWhereNamed): a record of a site that names
  // args gets its args as every reader does, any other record none.
  RunResult R = run({"values", "0"});
  Trace Full = readOne(R);
  ASSERT_EQ(R.Files.size(), 1u);
  TraceStream S;
  std::string Error;
  ASSERT_TRUE(S.open(R.Files[0], Error)) << Error;
  S.setArgsOnlyWhereNamed(true);
  size_t I = 0, Named = 0, Left = 0;
  while (const Event *E = S.next()) {
    ASSERT_LT(I, Full.Events.size());
    const Event &F = Full.Events[I++];
    ASSERT_EQ(E->Site, F.Site);
    ASSERT_EQ(E->Ts, F.Ts);
    if (!S.trace().site(E->Site).ArgNames.empty()) {
      ++Named;
      ASSERT_TRUE(E->A && F.A);
      auto Text = [](const Args &A) {
        std::string Out;
        for (const auto &[Name, V] : A)
          Out += Name + "=" + kindAndJson(V) + ";";
        return Out;
      };
      EXPECT_EQ(Text(*E->A), Text(*F.A));
    } else {
      Left += F.A && !F.A->empty();
      EXPECT_TRUE(!E->A || E->A->empty());
    }
  }
  EXPECT_EQ(I, Full.Events.size());
  EXPECT_GT(Named, 0u); // the epochs and steps
  EXPECT_GT(Left, 0u);  // the losses, in the steps' context
}

/// How many events of `Kind` each site name has.
std::map<std::string, int> countsByName(const Trace &T, EventKind Kind) {
  std::map<std::string, int> N;
  for (const Event &E : T.Events)
    if (E.Kind == Kind)
      ++N[T.site(E.Site).Name];
  return N;
}

std::map<std::string, int> instantCounts(const Trace &T) {
  return countsByName(T, EventKind::Instant);
}

TEST(Lifecycle, CategoriesAndProbesSwitchAtRunTime) {
  RunResult R = run({"enable", "0"});
  auto N = instantCounts(readOne(R));
  EXPECT_EQ(N["f"], 2);   // off after disable("compute"), on after "all"
  EXPECT_EQ(N["d"], 4);   // never switched off
  EXPECT_EQ(N["off"], 2); // `enabled: false` until forced on
}

TEST(Lifecycle, EnvironmentSetsTheStartingRules) {
  RunResult R = run({"enable", "0"},
                    {"SONDE_DISABLE=data,user.x", "SONDE_ENABLE=compute"});
  auto N = instantCounts(readOne(R));
  EXPECT_EQ(N["f"], 2);
  EXPECT_EQ(N["d"], 1); // off from the start, on after enable("all")
  EXPECT_EQ(N["off"], 2);
}

TEST(Lifecycle, FileNameCarriesProgramRankAndPid) {
  RunResult R = run({"return", "1"}, {"RANK=3"});
  ASSERT_EQ(R.Files.size(), 1u);
  Trace T = readOne(R);
  std::string Expected =
      R.Dir + "/exit-paths-3-" + std::to_string(T.Process.Pid) + ".sonde";
  EXPECT_EQ(R.Files[0], Expected);
  EXPECT_EQ(T.Process.Rank, 3);
}

TEST(Api, EveryPrimitiveRecordsWhatItSays) {
  RunResult R = run({"api", "0"});
  ASSERT_TRUE(R.exited(0));
  Trace T = readOne(R);
  std::map<std::string, std::vector<const Event *>> By;
  for (const Event &E : T.Events)
    By[sonde::trace::eventName(T, E)].push_back(&E);
  // mode: instant
  ASSERT_EQ(By["meta.start"].size(), 1u);
  ASSERT_EQ(By["meta.stop"].size(), 1u);
  EXPECT_LE(By["meta.start"][0]->Ts, By["meta.stop"][0]->Ts);
  // begin/end closes what was left open inside, innermost first.
  ASSERT_EQ(By["hook"].size(), 1u);
  ASSERT_EQ(By["inner"].size(), 1u);
  EXPECT_EQ(By["inner"][0]->Level, By["hook"][0]->Level + 1);
  EXPECT_FALSE(By["inner"][0]->Unfinished);
  // Loop + Iteration: indices 0, 1, 2.
  ASSERT_EQ(By["epoch.block"].size(), 3u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(By["epoch.block"][I]->Iter, I);
  // iterate(): a block per iteration entered (3 before the break, 2 before
  // the throw), a fetch per element dereferenced; indices restart per loop.
  ASSERT_EQ(By["fetch.block"].size(), 5u);
  ASSERT_EQ(By["fetch.iter"].size(), 5u);
  std::vector<int64_t> Iters;
  for (const Event *E : By["fetch.block"])
    Iters.push_back(E->Iter);
  EXPECT_EQ(Iters, (std::vector<int64_t>{0, 1, 2, 0, 1}));
  for (size_t I = 0; I < 5; ++I)
    EXPECT_LE(By["fetch.iter"][I]->Ts + By["fetch.iter"][I]->Dur,
              By["fetch.block"][I]->Ts);
  // Frame / inFrame, every.
  EXPECT_EQ(By["in_frame"].size(), 2u);
  EXPECT_EQ(By["every3"].size(), 4u);
  EXPECT_EQ(By["frame"].size(), 0u); // a frame records nothing
}

// --- When the trace cannot be written (issue 12 item 3) -------------------

/// The run's stderr is one line saying sonde cannot `Verb` the trace file
/// it tried under `Dir`, with the errno's name.
void expectOneFileLine(const RunResult &R, const std::string &Verb,
                       const std::string &Dir, const char *Errno) {
  std::vector<std::string> L = lines(R.Stderr);
  ASSERT_EQ(L.size(), 1u) << R.Stderr;
  EXPECT_NE(L[0].find("sonde: cannot " + Verb + " the trace file '" + Dir +
                      "/exit-paths-0-"),
            std::string::npos)
      << L[0];
  EXPECT_NE(L[0].find(std::string("(") + Errno + ")"), std::string::npos)
      << L[0];
}

/// The one stderr line of a run that could not record, checked: it names
/// the file sonde tried and the errno.
void expectOneFileError(const RunResult &R, const std::string &DirPrefix,
                        const char *Errno) {
  ASSERT_NO_FATAL_FAILURE(expectOneFileLine(R, "create", DirPrefix, Errno));
  EXPECT_TRUE(R.exited(0)) << "the program's own exit status is kept";
  EXPECT_EQ(R.produced(), 10);
}

TEST(Output, MissingParentIsSaidOnce) {
  std::string Dir = makeTempDir() + "/missing/sub";
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Dir});
  expectOneFileError(R, Dir, "ENOENT");
}

TEST(Output, RegularFileInPlaceOfTheDirectoryIsSaidOnce) {
  std::string Dir = makeTempDir() + "/file";
  std::ofstream(Dir) << "x";
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Dir});
  expectOneFileError(R, Dir, "ENOTDIR");
}

TEST(Output, ReadOnlyDirectoryIsSaidOnce) {
  std::string Base = makeTempDir();
  std::string Dir = Base + "/ro";
  ASSERT_EQ(mkdir(Dir.c_str(), 0555), 0);
  ASSERT_EQ(chmod(Base.c_str(), 0755), 0);
  // Root ignores permission bits: the program runs as nobody then.
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Dir}, [] {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
      _exit(125);
  });
  ASSERT_FALSE(R.exited(125)) << "cannot switch to user nobody";
  expectOneFileError(R, Dir, "EACCES");
}

/// Mounts a tmpfs of `Options` at the new directory `Dir`, in a private
/// mount namespace for this test process (ctest runs each test in its own),
/// so it is seen by it and its children only. False, with why, if it cannot.
bool mountTmpfs(const std::string &Dir, unsigned long Flags,
                const char *Options, std::string &Why) {
  if (mkdir(Dir.c_str(), 0755) != 0) {
    Why = "cannot make " + Dir + ": " + strerror(errno);
    return false;
  }
  if (unshare(CLONE_NEWNS) != 0 ||
      mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    Why = std::string("cannot make a mount namespace: ") + strerror(errno);
    return false;
  }
  if (mount("tmpfs", Dir.c_str(), "tmpfs", Flags, Options) != 0) {
    Why = std::string("cannot mount it: ") + strerror(errno);
    return false;
  }
  return true;
}

TEST(Output, ReadOnlyMountIsSaidOnce) {
  std::string Why;
  std::string Dir = makeTempDir() + "/mnt";
  if (!mountTmpfs(Dir, MS_RDONLY, "size=64k", Why))
    GTEST_SKIP() << "needs root to mount a read-only tmpfs: " << Why;
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Dir});
  umount(Dir.c_str());
  expectOneFileError(R, Dir, "EROFS");
}

TEST(Output, FullDiskCutsBackToWholeBlocksAndCountsTheLoss) {
  // A 256 KiB tmpfs: the program fills it with a file between two flushes,
  // records N more (which cannot be written), deletes the file and records
  // N more. The trace must read to its end record: no torn block in the
  // middle, the lost records counted as dropped, one line on stderr.
  std::string Why;
  std::string Dir = makeTempDir() + "/disk";
  if (!mountTmpfs(Dir, 0, "size=256k", Why))
    GTEST_SKIP() << "needs root to mount a small tmpfs: " << Why;
  const long N = 3000;
  RunResult R = run({"diskfull", std::to_string(N), Dir + "/filler"},
                    {"SONDE_OUTPUT=" + Dir});
  R.Files = traceFiles(Dir);
  ASSERT_TRUE(R.exited(0)) << R.Stderr;
  ASSERT_EQ(R.produced(), 3 * N);
  ASSERT_NO_FATAL_FAILURE(expectOneFileLine(R, "write", Dir, "ENOSPC"));
  Trace T = readOne(R);
  umount(Dir.c_str());
  EXPECT_TRUE(T.Complete) << T.Problem;
  EXPECT_EQ(T.Process.How, "exit");
  // The first and the last N values are all there; of the N made while the
  // disk was full, what the writer could not write is counted as dropped
  // (the background writer may have fitted a few into the last page of the
  // file before it filled: how many depends on timing, the sum does not).
  std::vector<long> Values;
  for (const Event &E : T.Events)
    if (E.Kind == EventKind::Watch && T.site(E.Site).Name == "i")
      Values.push_back(E.V.I);
  EXPECT_EQ(Values.size() + T.Process.Dropped, static_cast<size_t>(3 * N));
  EXPECT_GT(T.Process.Dropped, 0u);
  ASSERT_GE(Values.size(), static_cast<size_t>(2 * N));
  for (long I = 0; I < N; ++I) {
    ASSERT_EQ(Values[I], I);
    ASSERT_EQ(Values[Values.size() - N + I], 2 * N + I);
  }
  for (size_t I = 1; I < Values.size(); ++I)
    ASSERT_LT(Values[I - 1], Values[I]) << "in order, none twice";
}

TEST(Output, FullDiskBeforeThePreambleIsSaidOnceAndLeavesNoFile) {
  // The file can be made (tmpfs counts inodes apart from bytes) but not
  // even its preamble written: one line, and no empty file left behind.
  std::string Why;
  std::string Dir = makeTempDir() + "/disk";
  if (!mountTmpfs(Dir, 0, "size=64k", Why))
    GTEST_SKIP() << "needs root to mount a small tmpfs: " << Why;
  {
    std::ofstream Filler(Dir + "/filler");
    static char Page[4096];
    while (Filler.write(Page, sizeof Page))
      ;
  }
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Dir});
  std::vector<std::string> Left = traceFiles(Dir);
  umount(Dir.c_str());
  ASSERT_NO_FATAL_FAILURE(expectOneFileLine(R, "write", Dir, "ENOSPC"));
  EXPECT_NE(R.Stderr.find("; this run is not recorded"), std::string::npos)
      << R.Stderr;
  EXPECT_TRUE(R.exited(0)) << "the program's own exit status is kept";
  EXPECT_EQ(R.produced(), 10);
  EXPECT_TRUE(Left.empty()) << Left[0];
}

// --- Environment values (issue 12 item 4) ------------------------------------

/// Runs `return 10` with one setting; returns its stderr lines.
std::vector<std::string> refusedLines(const std::string &Setting,
                                      RunResult *Out = nullptr) {
  RunResult R = run({"return", "10"}, {Setting});
  EXPECT_TRUE(R.exited(0));
  if (Out)
    *Out = R;
  return lines(R.Stderr);
}

TEST(Environment, EachRefusedValueIsOneLineSayingWhatIsUsed) {
  struct Case {
    const char *Setting, *Line;
  } Cases[] = {
      {"SONDE_BUFFER_SIZE=-1",
       "sonde: SONDE_BUFFER_SIZE=-1 is not a byte count"},
      {"SONDE_BUFFER_SIZE=99999999999999999999G",
       "sonde: SONDE_BUFFER_SIZE=99999999999999999999G is not a byte count"},
      {"SONDE_BUFFER_SIZE=1G", "sonde: SONDE_BUFFER_SIZE=1G is more than"},
      {"SONDE_BUFFER_SIZE=4 M", "sonde: SONDE_BUFFER_SIZE=4 M is not"},
      {"SONDE_MAX_BYTES=16EB",
       "sonde: SONDE_MAX_BYTES=16EB is not a byte count"},
      {"SONDE_MAX_BYTES=10", "sonde: SONDE_MAX_BYTES=10 is too small"},
      {"SONDE_ON_FULL=dorp",
       "sonde: SONDE_ON_FULL=dorp is not 'block' or 'drop'"},
      {"RANK=-1", "sonde: RANK=-1 is not a rank"},
      {"RANK=99999999999999999999", "sonde: RANK=99999999999999999999 is not"},
      {"SLURM_PROCID=3x", "sonde: SLURM_PROCID=3x is not a rank"},
  };
  const char *Using[] = {"; using 4M",    "; using 4M",     "; using 256M",
                         "; using 4M",    "; using no cap", "; using 64K",
                         "; using block", "; using 0",      "; using 0",
                         "; using 0"};
  for (size_t I = 0; I < sizeof Cases / sizeof *Cases; ++I) {
    std::vector<std::string> L = refusedLines(Cases[I].Setting);
    ASSERT_EQ(L.size(), 1u) << Cases[I].Setting;
    EXPECT_EQ(L[0].rfind(Cases[I].Line, 0), 0u) << L[0];
    EXPECT_NE(L[0].find(Using[I]), std::string::npos) << L[0];
  }
  for (const char *Good :
       {"SONDE_BUFFER_SIZE=64K", "SONDE_BUFFER_SIZE=4MiB", "SONDE_MAX_BYTES=1G",
        "SONDE_MAX_BYTES=0", "SONDE_ON_FULL=block", "SONDE_ON_FULL=drop",
        "RANK=7"})
    EXPECT_TRUE(refusedLines(Good).empty()) << Good;
}

TEST(Environment, RefusedMaxBytesMeansNoCap) {
  // 16EB was read as 16 bytes: every record dropped.
  RunResult R;
  refusedLines("SONDE_MAX_BYTES=16EB", &R);
  Trace T = readOne(R);
  EXPECT_EQ(count(T).Watches, 10);
  EXPECT_EQ(T.Process.Dropped, 0u);
}

TEST(Environment, RefusedRankNamesTheFileRankZero) {
  RunResult R;
  refusedLines("RANK=-1", &R);
  ASSERT_EQ(R.Files.size(), 1u);
  Trace T = readOne(R);
  EXPECT_EQ(R.Files[0], R.Dir + "/exit-paths-0-" +
                            std::to_string(T.Process.Pid) + ".sonde");
  EXPECT_EQ(T.Process.Rank, 0);
}

TEST(Environment, OutputLongerThanThePathLimitIsRefusedNotCut) {
  std::string Base = makeTempDir();
  std::string Long = Base + "/" + std::string(1100 - Base.size(), 'd');
  RunResult R = run({"return", "10"}, {"SONDE_OUTPUT=" + Long});
  std::vector<std::string> L = lines(R.Stderr);
  ASSERT_EQ(L.size(), 1u) << R.Stderr;
  EXPECT_EQ(L[0].rfind("sonde: SONDE_OUTPUT=", 0), 0u) << L[0];
  EXPECT_NE(L[0].find("is longer than 1023 bytes; using the current "
                      "directory"),
            std::string::npos)
      << L[0];
  // Nothing made under the cut name; the trace is in the working directory.
  struct stat St;
  EXPECT_NE(stat(Long.substr(0, 1023).c_str(), &St), 0);
  EXPECT_EQ(R.Files.size(), 1u);
}

TEST(Environment, CategoryNoSiteHasIsSaidOnceAtExit) {
  RunResult R = run({"enable", "0"}, {"SONDE_DISABLE=compte,data"});
  std::vector<std::string> L = lines(R.Stderr);
  ASSERT_EQ(L.size(), 1u) << R.Stderr;
  EXPECT_EQ(L[0].rfind("sonde: SONDE_DISABLE: 'compte' matches no category", 0),
            0u)
      << L[0];
  EXPECT_NE(L[0].find("compute.forward"), std::string::npos) << L[0];
  auto N = instantCounts(readOne(R));
  EXPECT_EQ(N["d"], 1); // `data` did apply
}

// --- Start-up (issue 12 item 13, issue 19) ----------------------------------

TEST(Lifecycle, UnderscoreExitAtOnceStillNamesTheProcess) {
  // _exit right after the first records: before, a 16-byte file (or none)
  // that `sonde summary` showed as `pid 0 rank 0 host ,`.
  RunResult R = run({"_exit", "1"}, {"RANK=2"});
  ASSERT_TRUE(R.exited(99));
  ASSERT_EQ(R.Files.size(), 1u);
  Trace T = readOne(R);
  EXPECT_EQ(T.Process.Program, "exit-paths");
  EXPECT_EQ(T.Process.Rank, 2);
  EXPECT_FALSE(T.Process.Host.empty());
  EXPECT_EQ(R.Files[0], R.Dir + "/exit-paths-2-" +
                            std::to_string(T.Process.Pid) + ".sonde");
  EXPECT_FALSE(T.Process.Ended);
}

TEST(Lifecycle, StartUpHappensBeforeTheFirstFetchIsTimed) {
  RunResult R = run({"iterate", "5"});
  ASSERT_TRUE(R.exited(0)) << R.Stderr;
  EXPECT_NE(R.Stdout.find("started before the first fetch 1"),
            std::string::npos)
      << R.Stdout;
  Trace T = readOne(R);
  auto Regions = countsByName(T, EventKind::Region);
  EXPECT_EQ(Regions["fetch.iter"], 5);
  EXPECT_EQ(Regions["fetch.block"], 5);
  EXPECT_EQ(count(T).Watches, 5);
}

TEST(Lifecycle, StartUpHappensBeforeTheFirstBodyIsTimedWithoutAFetch) {
  // The fetch switched off: the first body is what starts libsonde.
  RunResult R =
      run({"iterate", "5"}, {"SONDE_DISABLE=dataloader.fetch/fetch.iter"});
  ASSERT_TRUE(R.exited(0)) << R.Stderr;
  EXPECT_NE(R.Stdout.find("started before the first fetch 1"),
            std::string::npos)
      << R.Stdout;
  Trace T = readOne(R);
  auto Regions = countsByName(T, EventKind::Region);
  EXPECT_EQ(Regions["fetch.iter"], 0);
  EXPECT_EQ(Regions["fetch.block"], 5);
}

// --- Torn files
// ----------------------------------------------------------------

TEST(Reader, TornFileKeepsEveryRecordBeforeTheTear) {
  RunResult R = run({"return", "3000"});
  ASSERT_EQ(R.Files.size(), 1u);
  std::ifstream In(R.Files[0], std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  long Previous = -1;
  std::string Cut = R.Dir + "/cut.sonde";
  // Every offset of the preamble, then ~500 cuts through the events.
  size_t Step = std::max<size_t>(1, Bytes.size() / 500);
  for (size_t Len = 16; Len <= Bytes.size(); Len += Len < 300 ? 1 : Step) {
    std::ofstream(Cut, std::ios::binary).write(Bytes.data(), Len);
    Trace T;
    std::string Error;
    ASSERT_TRUE(readTrace(Cut, T, Error)) << Len << ": " << Error;
    long N = count(T).Watches;
    EXPECT_GE(N, Previous) << "cut at " << Len;
    Previous = N;
    if (Len < Bytes.size()) {
      EXPECT_FALSE(T.Process.Ended && T.Complete) << Len;
    }
    // Values stay in sequence: a tear never invents or reorders records.
    long I = 0;
    for (const Event &E : T.Events)
      if (E.Kind == EventKind::Watch)
        ASSERT_EQ(E.V.I, I++) << "cut at " << Len;
  }
  Trace Full;
  std::string Error;
  ASSERT_TRUE(readTrace(R.Files[0], Full, Error));
  EXPECT_EQ(count(Full).Watches, 3000);
}

TEST(Reader, RejectsWhatIsNotATrace) {
  std::string Dir = makeTempDir();
  std::string P = Dir + "/junk.sonde";
  std::ofstream(P) << "not a trace at all";
  Trace T;
  std::string Error;
  EXPECT_FALSE(readTrace(P, T, Error));
  EXPECT_NE(Error.find("not a sonde trace"), std::string::npos) << Error;
  EXPECT_FALSE(readTrace(Dir + "/missing.sonde", T, Error));
  EXPECT_NE(Error.find("cannot open"), std::string::npos) << Error;
}

// --- A simulated host (SONDE_TEST_CLOCK_OFFSET, issue 15 item 4) -------------

int64_t clockNow(clockid_t Id) {
  timespec Ts;
  clock_gettime(Id, &Ts);
  return static_cast<int64_t>(Ts.tv_sec) * 1000000000 + Ts.tv_nsec;
}

TEST(Environment, ASimulatedHostShiftsItsClocksAndNamesItsBoot) {
  constexpr int64_t Shift = 7000000000;
  RunResult Plain = run({"return", "1"}, {"RANK=1"});
  int64_t RealBefore = clockNow(CLOCK_REALTIME);
  int64_t MonoBefore = clockNow(CLOCK_MONOTONIC);
  RunResult R = run({"return", "1"},
                    {"RANK=1", "SONDE_TEST_CLOCK_OFFSET=0:5,1:7000000000"});
  int64_t RealAfter = clockNow(CLOCK_REALTIME);
  int64_t MonoAfter = clockNow(CLOCK_MONOTONIC);
  EXPECT_EQ(R.Stderr, "");
  Trace P = readOne(Plain), T = readOne(R);
  ASSERT_FALSE(P.Process.BootId.empty());
  EXPECT_EQ(T.Process.BootId,
            P.Process.BootId + "+simulated-clock-offset:7000000000");
  // Every clock reading of the run, 7 s ahead of the machine's, whatever
  // the run took.
  EXPECT_GE(T.Process.StartNs, RealBefore + Shift);
  EXPECT_LE(T.Process.StartNs, RealAfter + Shift);
  ASSERT_FALSE(T.Anchors.empty());
  for (const ClockAnchor &A : T.Anchors) {
    EXPECT_GE(A.RealNs, RealBefore + Shift);
    EXPECT_LE(A.RealNs, RealAfter + Shift);
    EXPECT_GE(A.MonoNs, MonoBefore + Shift);
    EXPECT_LE(A.MonoNs, MonoAfter + Shift);
  }
  EXPECT_FALSE(T.Sync.Known); // no exchange without libsonde_torch
  // Another rank of the list: no shift, the machine's boot.
  RunResult Zero =
      run({"return", "1"}, {"RANK=2", "SONDE_TEST_CLOCK_OFFSET=1:7000000000"});
  EXPECT_EQ(readOne(Zero).Process.BootId, P.Process.BootId);
}

TEST(Environment, AMalformedClockOffsetIsRefusedOnceAndNothingSimulated) {
  for (const char *Bad :
       {"SONDE_TEST_CLOCK_OFFSET=1:7s", "SONDE_TEST_CLOCK_OFFSET=0:1,0:2",
        "SONDE_TEST_CLOCK_OFFSET=0:3600000000001"}) {
    RunResult R;
    std::vector<std::string> L = refusedLines(Bad, &R);
    ASSERT_EQ(L.size(), 1u) << Bad;
    EXPECT_EQ(L[0].rfind("sonde: SONDE_TEST_CLOCK_OFFSET: '", 0), 0u) << L[0];
    EXPECT_NE(L[0].find("' is not RANK:NS"), std::string::npos) << L[0];
    EXPECT_NE(L[0].find("; simulating no clock offset"), std::string::npos)
        << L[0];
    EXPECT_EQ(readOne(R).Process.BootId.find("simulated"), std::string::npos);
  }
}

} // namespace
