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

#include "Runtime.h"

#include <cerrno>
#include <csignal>
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

/// A byte count with an optional K, M or G suffix; `Default` if it does not
/// start with a digit.
uint64_t parseBytes(const char *S, uint64_t Default) {
  char *End = nullptr;
  unsigned long long V = std::strtoull(S, &End, 10);
  if (End == S)
    return Default;
  switch (*End) {
  case 'k':
  case 'K':
    V <<= 10;
    break;
  case 'm':
  case 'M':
    V <<= 20;
    break;
  case 'g':
  case 'G':
    V <<= 30;
    break;
  default:
    break;
  }
  return V;
}

/// A ring size: a power of two between 64 KiB and 1 GiB.
uint64_t parseSize(const char *S, uint64_t Default) {
  uint64_t V = parseBytes(S, Default);
  uint64_t P = 64u << 10;
  while (P < V && P < (1ull << 30))
    P <<= 1;
  return P;
}

uint64_t realtimeNs() {
  timespec Ts;
  clock_gettime(CLOCK_REALTIME, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

void readConfig() {
  TheConfig.StartNs = realtimeNs();
  if (const char *V = std::getenv("SONDE_ON_FULL"))
    TheConfig.DropWhenFull = std::strcmp(V, "drop") == 0;
  if (const char *V = std::getenv("SONDE_BUFFER_SIZE"))
    TheConfig.RingBytes = parseSize(V, TheConfig.RingBytes);
  if (const char *V = std::getenv("SONDE_MAX_BYTES"))
    TheConfig.MaxBytes = parseBytes(V, 0);
  if (const char *V = std::getenv("SONDE_OUTPUT"); V && *V) {
    std::strncpy(TheConfig.OutputDir, V, sizeof TheConfig.OutputDir - 1);
    TheConfig.OutputDir[sizeof TheConfig.OutputDir - 1] = '\0';
  }
}

void finishOnce(const char *How) {
  if (Down.exchange(true))
    return;
  finishTrace(How);
}

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
  TheConfig.StartNs = realtimeNs();
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
  finishOnce("exit");
}
