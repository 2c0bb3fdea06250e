//===- Lifecycle.cpp - First use, exit, signals and fork ------------------===//
//
// Nothing is needed in main(): the runtime starts at the first event, and
// writes the end of the trace on every way out that can be caught:
//   - return from main and exit(): a destructor function, which runs after
//     the program's static destructors (so their probes are kept too);
//   - quick_exit(): an at_quick_exit handler;
//   - SIGINT, SIGTERM: a handler that finishes the trace, then re-raises
//     with the default action (only where the program left the default);
//   - SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL: the same, best effort, on an
//     alternate stack so a stack overflow can still be reported;
//   - fork(): the child forgets the parent's pending records and writes its
//     own file.
//
//===----------------------------------------------------------------------===//

#include "ClockShift.h"
#include "Env.h"
#include "Runtime.h"
#include "World.h"
#include "sonde/torch.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

namespace sonde::rt::detail {
namespace {

std::atomic<int> InitState{0}; // 0 not started, 1 in progress, 2 done
std::atomic<bool> Down{false};
Config TheConfig;

struct CaughtSignal {
  int Number;
  const char *How;
};
constexpr CaughtSignal Caught[] = {
    {SIGINT, "signal:SIGINT"},  {SIGTERM, "signal:SIGTERM"},
    {SIGSEGV, "crash:SIGSEGV"}, {SIGBUS, "crash:SIGBUS"},
    {SIGABRT, "crash:SIGABRT"}, {SIGFPE, "crash:SIGFPE"},
    {SIGILL, "crash:SIGILL"},
};

uint64_t realtimeNs() {
  timespec Ts;
  clock_gettime(CLOCK_REALTIME, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

/// `sonde: VAR=VALUE WHY; using INSTEAD` on stderr: a value refused. A long
/// value is shown cut (the line says so).
void refuse(const char *Var, const char *Value, const char *Why,
            const char *Instead) {
  constexpr int Shown = 80;
  std::fprintf(stderr, "sonde: %s=%.*s%s %s; using %s\n", Var, Shown, Value,
               std::strlen(Value) > Shown ? "..." : "", Why, Instead);
}

void readBuffer() {
  const char *V = std::getenv("SONDE_BUFFER_SIZE");
  if (!V)
    return;
  char Used[24], Bound[24];
  uint64_t Bytes = 0;
  if (!env::parseBytes(V, Bytes)) {
    env::formatBytes(TheConfig.RingBytes, Used);
    refuse("SONDE_BUFFER_SIZE", V,
           "is not a byte count (digits and an optional K, M or G)", Used);
    return;
  }
  bool Clamped = false;
  TheConfig.RingBytes = env::ringBytes(Bytes, Clamped);
  if (Clamped) {
    env::formatBytes(TheConfig.RingBytes, Used);
    bool Low = Bytes < env::MinRingBytes;
    env::formatBytes(Low ? env::MinRingBytes : env::MaxRingBytes, Bound);
    char Why[96];
    std::snprintf(Why, sizeof Why, "is %s than a thread's ring may be (%s)",
                  Low ? "less" : "more", Bound);
    refuse("SONDE_BUFFER_SIZE", V, Why, Used);
  }
}

void readMaxBytes() {
  const char *V = std::getenv("SONDE_MAX_BYTES");
  if (!V)
    return;
  uint64_t Bytes = 0;
  if (!env::parseBytes(V, Bytes)) {
    refuse("SONDE_MAX_BYTES", V,
           "is not a byte count that fits 64 bits (digits and an optional K, "
           "M, G, T, P or E)",
           "no cap");
    return;
  }
  if (Bytes != 0 && Bytes < env::MinMaxBytes) {
    char Used[24];
    env::formatBytes(env::MinMaxBytes, Used);
    refuse("SONDE_MAX_BYTES", V, "is too small to hold a trace", Used);
    Bytes = env::MinMaxBytes;
  }
  TheConfig.MaxBytes = Bytes;
}

void readFlushDelay() {
  const char *V = std::getenv("SONDE_FLUSH_DELAY");
  if (!V)
    return;
  uint64_t Ns = 0;
  if (!env::parseMillis(V, Ns)) {
    refuse("SONDE_FLUSH_DELAY", V,
           "is not a duration (digits and an optional unit, ms or s)", "500ms");
    return;
  }
  if (Ns < env::MinFlushDelayNs || Ns > env::MaxFlushDelayNs) {
    bool Low = Ns < env::MinFlushDelayNs;
    refuse("SONDE_FLUSH_DELAY", V,
           Low ? "is less than the writer can keep (50ms)"
               : "is more than an hour (3600s)",
           Low ? "50ms" : "3600s");
    Ns = Low ? env::MinFlushDelayNs : env::MaxFlushDelayNs;
  }
  TheConfig.FlushDelayNs = Ns;
}

/// Rank, local rank and world size from the launchers' variables
/// (World.h), each refused value or disagreement said in one line.
void readWorld() {
  env::WorldNote Notes[env::MaxWorldNotes];
  env::World W;
  unsigned N = env::detectWorld(
      [](const char *Var) -> const char * { return std::getenv(Var); }, W,
      Notes);
  for (unsigned I = 0; I < N; ++I)
    std::fprintf(stderr, "%s\n", Notes[I].Text);
  TheConfig.Rank = W.Rank;
  TheConfig.LocalRank = W.LocalRank;
  TheConfig.WorldSize = W.Size;
  TheConfig.Launcher = W.Launcher;
}

/// SONDE_TEST_CLOCK_OFFSET: this rank's simulated host (ClockShift.h).
void readClockShift() {
  const char *V = std::getenv("SONDE_TEST_CLOCK_OFFSET");
  if (!V || !*V)
    return;
  const char *Bad = nullptr;
  size_t BadLen = 0;
  int64_t Shift = 0;
  if (!env::parseClockShift(V, TheConfig.Rank, Shift, Bad, BadLen)) {
    std::fprintf(stderr,
                 "sonde: SONDE_TEST_CLOCK_OFFSET: '%.*s' is not RANK:NS (a "
                 "rank, then nanoseconds within +-3600000000000, this rank "
                 "once); simulating no clock offset\n",
                 static_cast<int>(BadLen > 80 ? 80 : BadLen), Bad);
    return;
  }
  TheConfig.ClockShiftNs = Shift;
  TheConfig.StartNs = shiftedClockNs(CLOCK_REALTIME);
}

void readConfig() {
  TheConfig.StartNs = realtimeNs();
  if (const char *V = std::getenv("SONDE_ON_FULL")) {
    if (std::strcmp(V, "drop") == 0)
      TheConfig.DropWhenFull = true;
    else if (std::strcmp(V, "block") != 0)
      refuse("SONDE_ON_FULL", V, "is not 'block' or 'drop'", "block");
  }
  if (const char *V = std::getenv("SONDE_ON_CHECK")) {
    if (std::strcmp(V, "abort") == 0)
      TheConfig.AbortOnCheck = true;
    else if (std::strcmp(V, "record") != 0)
      refuse("SONDE_ON_CHECK", V, "is not 'record' or 'abort'", "record");
  }
  readBuffer();
  readMaxBytes();
  readFlushDelay();
  readWorld();
  readClockShift();
  if (const char *V = std::getenv("SONDE_OUTPUT"); V && *V) {
    // Refused rather than cut: a cut path names another directory.
    if (std::strlen(V) >= sizeof TheConfig.OutputDir) {
      char Why[64];
      std::snprintf(Why, sizeof Why, "is longer than %zu bytes",
                    sizeof TheConfig.OutputDir - 1);
      refuse("SONDE_OUTPUT", V, Why, "the current directory");
    } else
      std::strcpy(TheConfig.OutputDir, V);
  }
}

void finishOnce(const char *How) {
  if (Down.exchange(true))
    return;
  finishTrace(How);
}

} // namespace

void finishNow(const char *How) noexcept { finishOnce(How); }

namespace {

void onSignal(int Sig, siginfo_t *, void *) {
  int SavedErrno = errno;
  const char *How = "signal";
  for (const CaughtSignal &C : Caught)
    if (C.Number == Sig)
      How = C.How;
  finishOnce(How);
  errno = SavedErrno;
  // SA_RESETHAND restored the default action and SA_NODEFER lets it apply
  // now: the process ends as it would have without sonde.
  raise(Sig);
}

void installSignalHandlers() {
  // An alternate stack for this thread, so a stack overflow can be
  // reported; left alone if the program has its own.
  stack_t Old;
  if (sigaltstack(nullptr, &Old) == 0 && (Old.ss_flags & SS_DISABLE)) {
    static char AltStack[64 * 1024];
    stack_t New{};
    New.ss_sp = AltStack;
    New.ss_size = sizeof AltStack;
    sigaltstack(&New, nullptr);
  }
  for (const CaughtSignal &C : Caught) {
    struct sigaction Prev;
    if (sigaction(C.Number, nullptr, &Prev) != 0)
      continue;
    // Only where the program kept the default: its own handler (or an
    // ignored signal) is its business.
    if (!(Prev.sa_flags & SA_SIGINFO) && Prev.sa_handler != SIG_DFL)
      continue;
    if ((Prev.sa_flags & SA_SIGINFO) && Prev.sa_sigaction)
      continue;
    struct sigaction Act{};
    Act.sa_sigaction = onSignal;
    sigemptyset(&Act.sa_mask);
    Act.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
    sigaction(C.Number, &Act, nullptr);
  }
}

void beforeFork() {
  if (InitState.load(std::memory_order_acquire) != 2)
    return;
  lockRegistry();
  lockDrainForFork();
}

void afterForkParent() {
  if (InitState.load(std::memory_order_acquire) != 2)
    return;
  unlockDrainAfterFork();
  unlockRegistry();
}

void afterForkChild() {
  if (InitState.load(std::memory_order_acquire) != 2)
    return;
  TheConfig.StartNs = shiftedClockNs(CLOCK_REALTIME);
  resetRegistryLockInChild();
  resetWriterInChild();
  resetThreadsInChild();
  if (!Down.load() && Current)
    ensureWriter();
}

void onQuickExit() {
  stopWriter();
  finishOnce("quick_exit");
}

} // namespace

const Config &config() noexcept { return TheConfig; }

void sayTorchMissing(TorchMissing What) noexcept {
  static std::atomic<bool> Said[static_cast<unsigned>(TorchMissing::Count)];
  static constexpr const char *Lines[] = {
      "sonde: a tensor watch records \"<tensor: link sonde::torch>\": "
      "libsonde_torch is not linked into this program",
      "sonde: a state probe records nothing: libsonde_torch is not linked "
      "into this program",
      "sonde: ATen op tracing is off: libsonde_torch is not linked into this "
      "program",
  };
  static_assert(sizeof Lines / sizeof *Lines ==
                static_cast<unsigned>(TorchMissing::Count));
  auto I = static_cast<unsigned>(What);
  if (I >= static_cast<unsigned>(TorchMissing::Count) || Said[I].exchange(true))
    return;
  // One write: a line, whatever else writes to stderr. A linker run with
  // --as-needed drops the library when nothing references it strongly.
  static const char How[] =
      " (CMake: link sonde::torch; by hand: `pkg-config --libs sonde-torch`, "
      "or -Wl,--no-as-needed -lsonde_torch)\n";
  char Line[512];
  size_t N = strnlen(Lines[I], sizeof Line - sizeof How);
  std::memcpy(Line, Lines[I], N);
  std::memcpy(Line + N, How, sizeof How - 1);
  ssize_t Ignored = ::write(STDERR_FILENO, Line, N + sizeof How - 1);
  (void)Ignored;
}

uint64_t clockFallback() noexcept {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

bool shutDown() noexcept { return Down.load(std::memory_order_acquire); }

void ensureInit() noexcept {
  if (SONDE_LIKELY(InitState.load(std::memory_order_acquire) == 2))
    return;
  int Expected = 0;
  if (!InitState.compare_exchange_strong(Expected, 1)) {
    while (InitState.load(std::memory_order_acquire) != 2)
      sched_yield();
    return;
  }
  readConfig();
  loadEnableRules();
  prepareWriter();
  installSignalHandlers();
  pthread_atfork(beforeFork, afterForkParent, afterForkChild);
  at_quick_exit(onQuickExit);
  InitState.store(2, std::memory_order_release);
}

} // namespace sonde::rt::detail

/// Runs after the program's static destructors and atexit handlers.
__attribute__((destructor)) static void sondeAtExit() {
  using namespace sonde::rt::detail;
  if (InitState.load(std::memory_order_acquire) != 2)
    return;
  stopWriter();
  if (!shutDown())
    reportUnmatchedRules();
  finishOnce("exit");
}
