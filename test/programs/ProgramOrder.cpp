//===- ProgramOrder.cpp - A thread's records come out in program order ----===//
//
// Records nested regions, instants, watches and loop iterations on two
// threads under a clock the test drives (SONDE_TEST_CLOCK, compiled into
// this program only), then reads its own trace: each thread's records must
// come out in the order the program made them, whatever the clock said.
//
//   program-order equal     every record on one and the same tick
//   program-order backward  every timestamp earlier than the one before
//   program-order forward   a clock that moves forward
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>

namespace {
enum class Clock { Forward, Equal, Backward } Mode = Clock::Forward;
std::atomic<uint64_t> Ticks{uint64_t(1) << 40};
} // namespace

uint64_t testClock() noexcept {
  switch (Mode) {
  case Clock::Equal:
    return Ticks.load(std::memory_order_relaxed);
  case Clock::Backward:
    return Ticks.fetch_sub(1000, std::memory_order_relaxed);
  case Clock::Forward:
    break;
  }
  return Ticks.fetch_add(1000, std::memory_order_relaxed);
}

#include "sonde/sonde.h"
#include "sonde/trace.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

using sonde::Site;
using sonde::SiteKind;

namespace {

Site Outer(SiteKind::Region, "test", "outer", __FILE__, __LINE__, "work");
Site Inner(SiteKind::Region, "test", "inner", __FILE__, __LINE__, "work");
Site Empty(SiteKind::Region, "test", "empty", __FILE__, __LINE__, "work");
Site Before(SiteKind::Instant, "test", "before", __FILE__, __LINE__, "work");
Site Enter(SiteKind::Instant, "test", "enter", __FILE__, __LINE__, "work");
Site Deep(SiteKind::Instant, "test", "deep", __FILE__, __LINE__, "work");
Site After(SiteKind::Instant, "test", "after", __FILE__, __LINE__, "work");
Site W(SiteKind::Watch, "test", "w", __FILE__, __LINE__, "work");
Site Text(SiteKind::Watch, "test", "text", __FILE__, __LINE__, "work");
Site Steps(SiteKind::Loop, "test", "step.block", __FILE__, __LINE__, "work");

void work() {
  sonde::instant(Before);
  {
    sonde::Region R(Outer);
    sonde::instant(Enter);
    sonde::watchScalar(W, 1);
    {
      sonde::Region R2(Inner);
      sonde::instant(Deep);
      sonde::watch(W, std::string("two"));
    }
    sonde::watchScalar(W, 3);
  }
  sonde::instant(After);
  {
    sonde::Region R3(Empty);
  }
  sonde::Loop L(Steps);
  for (int I = 0; I < 2; ++I) {
    sonde::Iteration It(L);
    sonde::watchScalar(W, 10 + I);
    sonde::Region R4(Inner);
  }
  sonde::watch(Text, "last");
}

/// What work() records, in its order: a name, with a watch's value.
const std::vector<std::string> Expected = {
    "before", "outer",        "enter", "w=1",   "inner",        "deep",
    "w=two",  "w=3",          "after", "empty", "step.block#0", "w=10",
    "inner",  "step.block#1", "w=11",  "inner", "text=last"};

std::string describe(const sonde::trace::Trace &T,
                     const sonde::trace::Event &E) {
  std::string S = T.site(E.Site).Name;
  if (E.Iter >= 0)
    S += "#" + std::to_string(E.Iter);
  if (E.Kind == sonde::trace::EventKind::Watch)
    S += "=" + (E.V.K == sonde::trace::Value::Kind::String
                    ? E.V.str()
                    : std::to_string(E.V.I));
  return S;
}

} // namespace

int main(int Argc, char **Argv) {
  const char *M = Argc > 1 ? Argv[1] : "forward";
  if (!std::strcmp(M, "equal"))
    Mode = Clock::Equal;
  else if (!std::strcmp(M, "backward"))
    Mode = Clock::Backward;
  else if (std::strcmp(M, "forward")) {
    std::fprintf(stderr, "usage: program-order equal|backward|forward\n");
    return 2;
  }
  char Dir[] = "/tmp/sonde-order-XXXXXX";
  if (!mkdtemp(Dir))
    return 2;
  setenv("SONDE_OUTPUT", Dir, 1);

  work();
  std::thread Other(work);
  Other.join();
  work();
  sonde::flush();

  sonde::trace::Trace T;
  std::string Error;
  if (!sonde::trace::readTrace(sonde::traceFile(), T, Error)) {
    std::fprintf(stderr, "FAIL: %s\n", Error.c_str());
    return 1;
  }
  std::map<uint32_t, std::vector<std::string>> Seen;
  for (const auto &E : T.Events)
    Seen[E.Thread].push_back(describe(T, E));
  std::vector<std::string> Twice = Expected;
  Twice.insert(Twice.end(), Expected.begin(), Expected.end());
  int Bad = Seen.size() == 2 ? 0 : 1;
  if (Bad)
    std::fprintf(stderr, "FAIL: %zu threads, expected 2\n", Seen.size());
  for (const auto &[Thread, Names] : Seen) {
    const auto &Want = Thread == Seen.begin()->first ? Twice : Expected;
    if (Names == Want)
      continue;
    ++Bad;
    std::fprintf(stderr, "FAIL: thread %u, clock %s:\n  got     ", Thread, M);
    for (const auto &N : Names)
      std::fprintf(stderr, " %s", N.c_str());
    std::fprintf(stderr, "\n  expected");
    for (const auto &N : Want)
      std::fprintf(stderr, " %s", N.c_str());
    std::fprintf(stderr, "\n");
  }
  std::printf("%s\n", Bad ? "FAIL" : "ok");
  return Bad ? 1 : 0;
}
