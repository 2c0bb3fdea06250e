//===- ExitPaths.cpp - A program that records, then leaves its way --------===//
//
// Driven by test/unit/runtime/LifecycleTest.cpp, which runs it with
// SONDE_OUTPUT set and reads the trace it leaves:
//
//   exit-paths MODE N [ARG]
//
// records N watch records (value 0..N-1) inside a region, then:
//   return      returns from main
//   exit        calls exit(3) with two regions open
//   quick_exit  calls quick_exit(4)
//   sigterm, sigint, segv, abort, bus, fpe   dies by that signal
//   threads     ARG threads record N each, exit, then main returns
//   drop        ARG threads record N each into tiny rings in drop mode
//   fork        the child records N more and exits; the parent N after
//   mixed       N values of varying size (strings, structs) through a ring
//               small enough to wrap many times
//   values      one watch of each supported type
//   series      N steps of the integer watches of IntSeries.h, with a
//               double and a bool between them
//   scalars     N steps of scalar watches at nesting levels 0 to 2
//               (`inner` regions): `count` the step, `shifting` an integer,
//               a double, an unsigned or a bool by turns (WatchDeltaTest)
//   static      a static object's destructor records after main returns
//   enable      categories switched at run time
//   diskfull    N records, flush; fills the trace's disk with the file ARG;
//               N more, flush (they cannot be written); deletes ARG; N more
//   iterate     a range-for through sonde::iterate; prints whether the
//               runtime had started when the loop's begin() returned
//   deep        N regions nested in each other (`inner`, a watch in each),
//               then one more `inner` with a watch inside
//   deepargs    the same with args (`step` N) on each region, then a watch
//               outside every region
//   unended     misused begin()/end(): a begin() left without its end()
//               inside `outer`, an `inner` Region closed by the end() of a
//               begin() around it, then a watch outside every region
//   writtenas   one value of each of many types, watched three ways: as
//               inserted code does (watchAt on a SiteTable, sites
//               `inserted_T`), through watchAny (`any_T`), and by hand
//               with the value's own type (`hand_T`)
//   _exit       (any other MODE) _exit(99) right after the records
//
// Prints what it produced on stdout, one `key value` per line.
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include "IntSeries.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

sonde::Site WatchSite(sonde::SiteKind::Watch, "user.test", "i", "ExitPaths.cpp",
                      1, "produce");
sonde::Site OuterSite(sonde::SiteKind::Region, "pipeline.train", "outer",
                      "ExitPaths.cpp", 2, "main");
sonde::Site InnerSite(sonde::SiteKind::Region, "compute.forward", "inner",
                      "ExitPaths.cpp", 3, "leave");

void produce(long N, long From = 0) {
  for (long I = From; I < From + N; ++I)
    sonde::watchScalar(WatchSite, I);
}

/// N regions nested by recursion, deeper than a thread's shadow stack when
/// N > 128: each exit must leave the depth as its entry found it.
void deep(long N) {
  sonde::Region R(InnerSite);
  sonde::watchScalar(WatchSite, N);
  if (N > 1)
    deep(N - 1);
}

sonde::Site ArgsSite(sonde::SiteKind::Region, "compute.forward", "stepped",
                     "ExitPaths.cpp", 4, "deepArgs", 0, sonde::ContextArgs,
                     "step");
sonde::Site BeganSite(sonde::SiteKind::Region, "user.test", "began",
                      "ExitPaths.cpp", 5, "unended");

/// deep() with an arg on each region: the args of the regions too deep to
/// record must not stay in force after them.
void deepArgs(long N) {
  sonde::Region R(ArgsSite, N);
  sonde::watchScalar(WatchSite, N);
  if (N > 1)
    deepArgs(N - 1);
}

/// begin() and end() misused both ways, each said once on stderr.
int unended() {
  {
    sonde::Region Outer(OuterSite);
    sonde::begin(BeganSite); // never ended: closed with `outer`
  }
  {
    sonde::RegionHandle H = sonde::begin(BeganSite);
    sonde::Region Inner(InnerSite);
    sonde::end(H); // closes `inner` too; its destructor records nothing more
  }
  sonde::watchScalar(WatchSite, -1L);
  return 0;
}

[[noreturn]] void leave(const std::string &Mode) {
  sonde::Region Inner(InnerSite);
  std::fflush(stdout);
  if (Mode == "exit")
    std::exit(3);
  if (Mode == "quick_exit")
    std::quick_exit(4);
  if (Mode == "sigterm")
    raise(SIGTERM);
  if (Mode == "sigint")
    raise(SIGINT);
  if (Mode == "abort")
    std::abort();
  if (Mode == "bus")
    raise(SIGBUS);
  if (Mode == "fpe")
    raise(SIGFPE);
  if (Mode == "segv") {
    volatile int *Null = nullptr;
    *Null = 1;
  }
  std::_Exit(99);
}

enum class Color { Red = 1, Green = 7 };

struct Point {
  double X, Y;
};

} // namespace

template <> struct sonde::ValueTraits<Point> {
  static constexpr size_t MaxBytes = 2 + 2 * 9 + 2 * 9;
  static void write(sonde::ValueWriter &W, const Point &P) {
    W.object(2);
    W.key("x");
    W.floating(P.X);
    W.key("y");
    W.floating(P.Y);
  }
};

/// A pointer type with traits of its own: recorded as a string, not as an
/// address (inserted watches must not take it for a plain pointer).
struct Tagged {
  int V;
};
template <> struct sonde::ValueTraits<Tagged *> {
  static constexpr size_t MaxBytes = 3 + 6;
  static void write(sonde::ValueWriter &W, const Tagged *) {
    W.string("tagged", 6);
  }
};

namespace {

void plainFunction() {}
int Pointee = 5;
Tagged TaggedOne{1};
char Text[] = "text";
const volatile int VolatileInt = 3;

/// Each type inserted watches may write through another (WrittenAs in
/// sonde/detail/Inserted.h), with a value at an edge of its range.
#define SONDE_WRITTEN_AS_VALUES(X)                                             \
  X(schar, static_cast<signed char>(-128))                                     \
  X(uchar, static_cast<unsigned char>(255))                                    \
  X(plain_char, static_cast<char>(-3))                                         \
  X(short, static_cast<short>(-32768))                                         \
  X(ushort, static_cast<unsigned short>(65535))                                \
  X(int, -2147483647 - 1)                                                      \
  X(unsigned, 4294967295u)                                                     \
  X(long, -9223372036854775807L - 1)                                           \
  X(ulong, 18446744073709551615ul)                                             \
  X(llong, -1LL)                                                               \
  X(char16, static_cast<char16_t>(0xffff))                                     \
  X(wchar, static_cast<wchar_t>(-1))                                           \
  X(bool, true)                                                                \
  X(float, 0.1f)                                                               \
  X(double, -2.5)                                                              \
  X(long_double, 1e300L)                                                       \
  X(volatile_int, VolatileInt)                                                 \
  X(int_ptr, &Pointee)                                                         \
  X(const_int_ptr, static_cast<const int *>(&Pointee))                         \
  X(volatile_int_ptr, &VolatileInt)                                            \
  X(null_ptr, static_cast<double *>(nullptr))                                  \
  X(void_ptr, static_cast<void *>(&Pointee))                                   \
  X(function_ptr, &plainFunction)                                              \
  X(char_ptr, static_cast<char *>(Text))                                       \
  X(const_char_ptr, static_cast<const char *>("literal"))                      \
  X(char_array, Text)                                                          \
  X(tagged_ptr, &TaggedOne)                                                    \
  X(enum, Color::Green)                                                        \
  X(point, (Point{1.5, -2.25}))

int writtenAs() {
#define SONDE_TABLE_ENTRY(Name, Value)                                         \
  "3\n0\n1\n0\nuser\ninserted_" #Name "\n\n\n"
  static sonde::SiteTable Table(
      "1\n29\nw.cpp\nwrittenAs\n" SONDE_WRITTEN_AS_VALUES(SONDE_TABLE_ENTRY));
#define SONDE_SITE(Prefix, Name)                                               \
  {sonde::SiteKind::Watch, "user", Prefix #Name, "w.cpp", 1, "writtenAs"},
#define SONDE_HAND_SITE(Name, Value) SONDE_SITE("hand_", Name)
#define SONDE_ANY_SITE(Name, Value) SONDE_SITE("any_", Name)
  static sonde::Site Hand[] = {SONDE_WRITTEN_AS_VALUES(SONDE_HAND_SITE)};
  static sonde::Site Any[] = {SONDE_WRITTEN_AS_VALUES(SONDE_ANY_SITE)};
  static_assert(sizeof Hand / sizeof Hand[0] == 29,
                "the table's count (its text's second line) is the number "
                "of values");
  uint32_t K = 0;
#define SONDE_WATCH3(Name, Value)                                              \
  {                                                                            \
    const auto &V = Value;                                                     \
    sonde::watchAt(Table, K, V);                                               \
    sonde::watchAny(Any[K], V);                                                \
    sonde::watchScalarOr(Hand[K], V);                                          \
    ++K;                                                                       \
  }
  SONDE_WRITTEN_AS_VALUES(SONDE_WATCH3)
  std::printf("produced %u\n", 3 * K);
  return 0;
}

struct Recorder {
  ~Recorder() {
    static sonde::Site S(sonde::SiteKind::Instant, "user.test", "static_dtor",
                         "ExitPaths.cpp", 4, "~Recorder");
    sonde::instant(S);
  }
};

int threads(long N, int Count) {
  std::vector<std::thread> Ts;
  for (int T = 0; T < Count; ++T)
    Ts.emplace_back([N] { produce(N); });
  for (auto &T : Ts)
    T.join();
  std::printf("produced %ld\n", N * Count);
  return 0;
}

int mixed(long N) {
  static sonde::Site S(sonde::SiteKind::Watch, "user.test", "mixed",
                       "ExitPaths.cpp", 5, "mixed");
  static sonde::Site P(sonde::SiteKind::Watch, "user.test", "point",
                       "ExitPaths.cpp", 6, "mixed");
  for (long I = 0; I < N; ++I) {
    // Sizes from 24 to ~300 bytes, so records land at every ring offset.
    std::string V(static_cast<size_t>(I % 251),
                  static_cast<char>('a' + I % 26));
    sonde::watch(S, V);
    sonde::watch(P, Point{double(I), -double(I)});
  }
  std::printf("produced %ld\n", 2 * N);
  return 0;
}

int values() {
  static sonde::Site S[] = {
      {sonde::SiteKind::Watch, "user", "int", "v.cpp", 1, "values"},
      {sonde::SiteKind::Watch, "user", "uint", "v.cpp", 2, "values"},
      {sonde::SiteKind::Watch, "user", "double", "v.cpp", 3, "values"},
      {sonde::SiteKind::Watch, "user", "bool", "v.cpp", 4, "values"},
      {sonde::SiteKind::Watch, "user", "string", "v.cpp", 5, "values"},
      {sonde::SiteKind::Watch, "user", "enum", "v.cpp", 6, "values"},
      {sonde::SiteKind::Watch, "user", "point", "v.cpp", 7, "values"},
      {sonde::SiteKind::Watch, "user", "long_string", "v.cpp", 8, "values"},
      {sonde::SiteKind::Watch, "user", "cstr", "v.cpp", 9, "values"},
      {sonde::SiteKind::Watch, "user", "float", "v.cpp", 10, "values"},
  };
  sonde::watchScalarOr(S[0], -42);
  sonde::watchScalarOr(S[1], 18446744073709551615ull);
  sonde::watchScalarOr(S[2], 2.5);
  sonde::watchScalarOr(S[3], true);
  sonde::watch(S[4], std::string("hello \"world\"\n"));
  sonde::watch(S[5], Color::Green);
  sonde::watch(S[6], Point{1.5, -2.25});
  sonde::watch(S[7], std::string(1000, 'x'));
  sonde::watch(S[8], "literal");
  sonde::watchScalarOr(S[9], 0.1f);
  // A region with args that are context for what is nested.
  static sonde::Site Epoch(sonde::SiteKind::Region, "pipeline.epoch", "epoch",
                           "v.cpp", 11, "values", 0, sonde::ContextArgs,
                           "epoch,tag");
  static sonde::Site Step(sonde::SiteKind::Region, "compute.step", "step",
                          "v.cpp", 12, "values", 0, 0, "step");
  static sonde::Site Loss(sonde::SiteKind::Watch, "user", "loss", "v.cpp", 13,
                          "values");
  for (int E = 0; E < 2; ++E) {
    sonde::Region R(Epoch, E, "train");
    for (int St = 0; St < 3; ++St) {
      sonde::Region Q(Step, St);
      sonde::watchScalar(Loss, 1.0 / (1 + E * 3 + St));
    }
  }
  std::printf("produced 10\n");
  return 0;
}

int enableDisable() {
  static sonde::Site F(sonde::SiteKind::Instant, "compute.forward", "f",
                       "e.cpp", 1, "e");
  static sonde::Site D(sonde::SiteKind::Instant, "data.item", "d", "e.cpp", 2,
                       "e");
  static sonde::Site Off(sonde::SiteKind::Instant, "user.x", "off", "e.cpp", 3,
                         "e", 0, sonde::OffByDefault);
  for (int Round = 0; Round < 4; ++Round) {
    if (Round == 1)
      sonde::disable("compute");
    if (Round == 2)
      sonde::setProbeEnabled("off", true);
    if (Round == 3)
      sonde::enable("all");
    sonde::instant(F);
    sonde::instant(D);
    sonde::instant(Off);
  }
  return 0;
}

/// Every other primitive of sonde.h, with known counts (see ApiTest).
int api() {
  static sonde::Site Meta(sonde::SiteKind::Region, "pipeline.epoch", "meta",
                          "api.cpp", 1, "api", 0, sonde::InstantMode);
  static sonde::Site Hook(sonde::SiteKind::Region, "compute", "hook", "api.cpp",
                          2, "api");
  static sonde::Site Inner(sonde::SiteKind::Region, "compute", "inner",
                           "api.cpp", 3, "api");
  static sonde::Site Body(sonde::SiteKind::Loop, "pipeline.epoch",
                          "epoch.block", "api.cpp", 4, "api");
  static sonde::Site Fetch(sonde::SiteKind::Loop, "dataloader.fetch",
                           "fetch.iter", "api.cpp", 5, "api");
  static sonde::Site Block(sonde::SiteKind::Loop, "dataloader.fetch",
                           "fetch.block", "api.cpp", 6, "api");
  static sonde::Site Ctx(sonde::SiteKind::Frame, "user", "frame", "api.cpp", 7,
                         "api");
  static sonde::Site InCtx(sonde::SiteKind::Instant, "user", "in_frame",
                           "api.cpp", 8, "api");
  static sonde::Site Tick(sonde::SiteKind::Instant, "user", "every3", "api.cpp",
                          9, "api");
  {
    sonde::InstantRegion M(Meta);
  } // meta.start, meta.stop
  sonde::RegionHandle H = sonde::begin(Hook);
  sonde::begin(Inner); // left open on purpose
  sonde::end(H);       // closes inner, then hook
  sonde::Loop L(Body);
  for (int E = 0; E < 3; ++E) {
    sonde::Iteration It(L); // epoch.block, iter 0..2
  }
  std::vector<int> V{1, 2, 3, 4, 5};
  for (int X : sonde::iterate(Fetch, Block, V)) // break after 3 blocks
    if (X == 3)
      break;
  try {
    for (int X : sonde::iterate(Fetch, Block, std::vector<int>{7, 8}))
      if (X == 8)
        throw X; // 2 more blocks, closed
  } catch (int) {
  }
  for (int I = 0; I < 2; ++I) {
    if (sonde::inFrame(Ctx))
      sonde::instant(InCtx); // not in the frame: none
    sonde::Frame F(Ctx);
    if (sonde::inFrame(Ctx))
      sonde::instant(InCtx); // 2
  }
  static thread_local uint32_t Counter = 0;
  for (int I = 0; I < 10; ++I)
    if (sonde::every(Counter, 3))
      sonde::instant(Tick); // hits 1, 4, 7, 10: 4
  return 0;
}

/// A disk that fills up while the program runs, then has room again.
int diskFull(long N, const char *Filler) {
  produce(N);
  sonde::flush();
  int Fd = open(Filler, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (Fd < 0)
    return 2;
  static char Block[4096];
  while (write(Fd, Block, sizeof Block) > 0) {
  }
  // The last bytes of the last page, as a file's tail can take them.
  while (write(Fd, Block, 1) > 0) {
  }
  close(Fd);
  produce(N, N);
  sonde::flush();
  unlink(Filler);
  produce(N, 2 * N);
  std::printf("produced %ld\n", 3 * N);
  return 0;
}

/// The first records of a run come from a range-for's fetch: libsonde must
/// have started before the first fetch is timed.
int iterateFirst(long N) {
  static sonde::Site Fetch(sonde::SiteKind::Loop, "dataloader.fetch",
                           "fetch.iter", "it.cpp", 1, "iterateFirst");
  static sonde::Site Block(sonde::SiteKind::Loop, "dataloader.fetch",
                           "fetch.block", "it.cpp", 2, "iterateFirst");
  std::vector<long> V;
  for (long I = 0; I < N; ++I)
    V.push_back(I);
  auto Loop = sonde::iterate(Fetch, Block, V);
  auto It = Loop.begin();
  std::printf("started before the first fetch %d\n",
              *sonde::traceFile() ? 1 : 0);
  for (; It != Loop.end(); ++It)
    sonde::watchScalar(WatchSite, *It);
  std::printf("produced %ld\n", N);
  return 0;
}

int series(long N) {
  using namespace intseries;
  static sonde::Site Main[] = {
      {sonde::SiteKind::Watch, "user", "counter", "s.cpp", 1, "series"},
      {sonde::SiteKind::Watch, "user", "jumps", "s.cpp", 2, "series"},
      {sonde::SiteKind::Watch, "user", "mixed_sign", "s.cpp", 3, "series"},
      {sonde::SiteKind::Watch, "user", "countdown", "s.cpp", 4, "series"},
  };
  static sonde::Site Other(sonde::SiteKind::Watch, "user", "other", "s.cpp", 5,
                           "series");
  // One site object per extra site: a Site is a static of its own.
  // Immortal (sites outlive main: the trace is finished after static
  // destructors), in a deque (sites do not move), with their names.
  static auto *Names = new std::vector<std::string>;
  static auto *Extra = new std::deque<sonde::Site>;
  if (Extra->empty()) {
    for (unsigned K = 0; K < ExtraSites; ++K)
      Names->push_back("extra" + std::to_string(K));
    for (unsigned K = 0; K < ExtraSites; ++K)
      Extra->emplace_back(sonde::SiteKind::Watch, "user", (*Names)[K].c_str(),
                          "s.cpp", 10 + K, "series");
  }
  auto Put = [](const sonde::Site &S, Val V) {
    if (V.Signed)
      sonde::watchScalar(S, static_cast<int64_t>(V.Bits));
    else
      sonde::watchScalar(S, V.Bits);
  };
  for (long I = 0; I < N; ++I) {
    auto U = static_cast<uint64_t>(I);
    Put(Main[0], counter(U));
    Put(Main[1], jumps(U));
    Put(Main[2], mixedSign(U));
    if (I % 7 == 0)
      sonde::watchScalar(Other, 0.5 * static_cast<double>(I));
    Put(Main[3], countdown(U));
    Put((*Extra)[U % ExtraSites], extra(U));
    if (I % 11 == 0)
      sonde::watchScalar(Other, I % 2 == 0);
  }
  std::printf("produced %ld\n", N);
  return 0;
}

/// `scalars` (see the file comment): the watches of WatchDeltaTest.
int scalars(long N) {
  static sonde::Site Count(sonde::SiteKind::Watch, "user", "count", "s.cpp", 1,
                           "scalars");
  static sonde::Site Shifting(sonde::SiteKind::Watch, "user", "shifting",
                              "s.cpp", 2, "scalars");
  auto Step = [](long I) {
    sonde::watchScalar(Count, I);
    switch (I % 4) {
    case 0:
      sonde::watchScalar(Shifting, -I);
      break;
    case 1:
      sonde::watchScalar(Shifting, static_cast<double>(I) + 0.5);
      break;
    case 2:
      sonde::watchScalar(Shifting, static_cast<uint64_t>(I) * 3);
      break;
    default:
      sonde::watchScalar(Shifting, I % 8 == 3);
    }
  };
  for (long I = 0; I < N; ++I) {
    if (I % 3 == 0) {
      Step(I);
    } else if (I % 3 == 1) {
      sonde::Region R(InnerSite);
      Step(I);
    } else {
      sonde::Region R(InnerSite);
      sonde::Region R2(InnerSite);
      Step(I);
    }
  }
  std::printf("produced %ld\n", N);
  return 0;
}

int forked(long N) {
  produce(N);
  std::fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    produce(N);
    produce(N);
    std::exit(0);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  produce(N);
  std::printf("child %d\n", static_cast<int>(Child));
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0 ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: exit-paths MODE N [ARG]\n");
    return 2;
  }
  std::string Mode = Argv[1];
  long N = std::atol(Argv[2]);
  int Arg = Argc > 3 ? std::atoi(Argv[3]) : 0;
  if (Mode == "threads" || Mode == "drop")
    return threads(N, Arg);
  if (Mode == "mixed")
    return mixed(N);
  if (Mode == "values")
    return values();
  if (Mode == "series")
    return series(N);
  if (Mode == "scalars")
    return scalars(N);
  if (Mode == "writtenas")
    return writtenAs();
  if (Mode == "enable")
    return enableDisable();
  if (Mode == "fork")
    return forked(N);
  if (Mode == "api")
    return api();
  if (Mode == "diskfull")
    return Argc > 3 ? diskFull(N, Argv[3]) : 2;
  if (Mode == "iterate")
    return iterateFirst(N);
  if (Mode == "deep") {
    deep(N);
    sonde::Region After(InnerSite);
    sonde::watchScalar(WatchSite, -1L);
    return 0;
  }
  if (Mode == "deepargs") {
    deepArgs(N);
    sonde::watchScalar(WatchSite, -1L);
    return 0;
  }
  if (Mode == "unended")
    return unended();
  if (Mode == "static") {
    static Recorder R;
    produce(N);
    return 0;
  }
  sonde::Region Outer(OuterSite);
  produce(N);
  std::printf("produced %ld\n", N);
  if (Mode == "return")
    return 0;
  leave(Mode);
}
