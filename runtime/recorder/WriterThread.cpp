//===- WriterThread.cpp - Drains the rings: who, when, until the end ------===//
//
// One writer per process. A pass takes the drain lock and hands every ring
// to the encoder, then writes Out to the file. The same pass runs from the
// background writer thread (which paces itself to the producers, see
// writerMain), from flush(), from a producer that waits for room, and from
// the exit and crash paths (finishTrace, which also writes the unfinished
// regions and the End block); so it allocates nothing and calls only
// async-signal-safe functions. Fork hooks keep the lock and the thread
// consistent in a child.
//
//===----------------------------------------------------------------------===//

#include "WriterState.h"

#include <condition_variable>
#include <csignal>
#include <cstring>
#include <mutex>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

namespace sonde::rt::detail {

using format::Block;
using format::putVarint;

namespace {

/// How far the background writer stays behind a busy producer.
constexpr uint64_t DrainLag = 64u << 10;
/// How often finishTrace tries the drain lock, 50 us apart: about a second.
constexpr unsigned AtExitTries = 20000;

/// The drain lock: 0 when free, else the kernel tid of its holder.
std::atomic<pid_t> DrainOwner{0};

// The writer thread's control. The mutex and condition variable are used by
// the writer thread and by waiting producers, never by a signal handler.
struct Control {
  std::mutex Lock;
  std::condition_variable Wake;
  bool Stop = false;
  bool Running = false;
  pthread_t Thread{};
};
Control &control() {
  static Control *C = new Control;
  return *C;
}
std::atomic<bool> WriterRunning{false};
std::atomic<bool> WakeRequested{false};

/// The most bytes any ring still held after the last pass.
uint64_t Backlog = 0;

/// The flush guarantee (docs/runtime.md, "Reading a file while it is
/// written"): a record reaches the file at most SONDE_FLUSH_DELAY (D) after
/// it is made. The background writer sees it at its next pass (passes are
/// at most D/10 apart); a ring it lags behind is drained whole once it has
/// held records for D/4; Out is written at most min(100 ms, D/4) after it
/// was last written, and at once after such a drain. 3 passes + D/4 +
/// D/4 < D. All of it on the writer's side: the producers' path is as it
/// was.
uint64_t heldLimitNs() { return config().FlushDelayNs / 4; }
uint64_t writeEveryNs() {
  uint64_t Quarter = config().FlushDelayNs / 4;
  return Quarter < 100000000 ? Quarter : 100000000;
}
uint64_t longestWaitUs() {
  uint64_t Tenth = config().FlushDelayNs / 10000;
  return Tenth < 20000 ? Tenth : 20000;
}

/// One pass over every ring. EXPECTS: the drain lock is held. With a `Lag`
/// (the background writer), `Now` is the monotonic time of the pass and
/// `Due` says whether a ring was drained whole because it had held records
/// too long.
uint64_t pass(WriterState &W, uint64_t Lag = 0, uint64_t Now = 0,
              bool *Due = nullptr) {
  Backlog = 0;
  if (W.Tainted) {
    flushOut(W); // drops what used lost definitions
    redefineAfterLoss(W);
  }
  // The preamble goes first: open before anything is encoded into Out.
  if (W.OutLen == 0)
    openFile(W);
  uint64_t Moved = 0;
  for (ThreadRecord *R = threadList(); R; R = R->Next) {
    int Life = R->Life.load(std::memory_order_acquire);
    if (Life == ThreadRecord::Free)
      continue;
    uint64_t RingLag = Life == ThreadRecord::Active ? Lag : 0;
    if (RingLag && R->HeldSinceNs && Now - R->HeldSinceNs >= heldLimitNs()) {
      RingLag = 0; // held long enough: a slow producer's records go out
      if (Due)
        *Due = true;
    }
    Moved += drainRing(W, *R, RingLag);
    uint64_t Left = R->State.Published.load(rt::detail::MemOrder::Relaxed) -
                    R->State.Consumed.load(rt::detail::MemOrder::Relaxed);
    Backlog = Left > Backlog ? Left : Backlog;
    if (Left == 0 || RingLag == 0)
      R->HeldSinceNs = Left && Lag ? Now : 0; // published during the drain
    else if (R->HeldSinceNs == 0)
      R->HeldSinceNs = Now;
    if (Life == ThreadRecord::Retired &&
        R->State.Consumed.load(rt::detail::MemOrder::Relaxed) ==
            R->State.Published.load(rt::detail::MemOrder::Acquire)) {
      // Drained for good: hand it to the next new thread.
      int Expected = ThreadRecord::Retired;
      R->Life.compare_exchange_strong(Expected, ThreadRecord::Free,
                                      std::memory_order_release);
    }
  }
  return Moved;
}

void *writerMain(void *) {
  // Process-directed signals go to the program's threads, never to the
  // writer: their handler drains, and must not interrupt a pass.
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, nullptr);
  pthread_setname_np(pthread_self(), "sonde-writer");
  Control &C = control();
  WriterState &W = writerState();
  unsigned IdlePasses = 0;
  uint64_t LastWrite = clockNs(CLOCK_MONOTONIC);
  uint64_t LastPass = LastWrite;
  for (;;) {
    uint64_t Moved = 0;
    uint64_t Left = 0;
    if (acquireDrain()) {
      bool Due = false;
      Moved = pass(W, DrainLag, clockNs(CLOCK_MONOTONIC), &Due);
      Left = Backlog;
      uint64_t Now = clockNs(CLOCK_MONOTONIC);
      // A second anchor soon after the first gives short runs a clock
      // rate; later ones keep a torn file convertible.
      uint64_t Real = clockNs(CLOCK_REALTIME);
      if (W.Fd >= 0 && ((W.Anchors < 2 && Real - W.LastAnchorNs > 10000000) ||
                        Real - W.LastAnchorNs > 1000000000))
        writeClock(W);
      if (W.OutLen > OutCapacity / 4 ||
          (W.OutLen > 0 && (Due || Now - LastWrite > writeEveryNs()))) {
        flushOut(W);
        LastWrite = Now;
      }
      releaseDrain();
    }
    std::unique_lock<std::mutex> G(C.Lock);
    if (C.Stop)
      break;
    if (WakeRequested.exchange(false))
      continue;
    // Drain in large batches and let the producers run ahead: touching the
    // lines they are writing costs them a cache-line transfer per line.
    // Only a ring filling up gets drained again at once; idle rings get
    // visited less and less often.
    IdlePasses = Moved ? 0 : IdlePasses + 1;
    uint64_t Quarter = config().RingBytes >> 2;
    if (Left > Quarter)
      continue;
    uint64_t Now = clockNs(CLOCK_MONOTONIC);
    uint64_t Elapsed = Now - LastPass;
    LastPass = Now;
    const uint64_t Longest = longestWaitUs();
    auto Wait = std::chrono::microseconds(IdlePasses < 8    ? 1000
                                          : Longest < 10000 ? Longest
                                                            : 10000);
    if (Moved) {
      // Sleep for half the time the rings would take to fill another
      // quarter at the rate just seen (all of it counted against one ring,
      // to be safe): a fast producer gets a pass every 200 us, a training
      // loop recording a few records per step one every 20 ms, and neither
      // pays for wake-ups it does not need (each costs the program a
      // context switch on a busy machine).
      double NsPerByte = double(Elapsed) / double(Moved);
      double FillNs = double(Quarter - Left) * NsPerByte;
      uint64_t Us = static_cast<uint64_t>(FillNs / 2000);
      Wait = std::chrono::microseconds(Us < 200       ? 200
                                       : Us > Longest ? Longest
                                                      : Us);
    }
    C.Wake.wait_for(G, Wait, [&] { return C.Stop || WakeRequested.load(); });
    if (C.Stop)
      break;
  }
  return nullptr;
}

} // namespace

WriterState &writerState() {
  static WriterState *W = new WriterState; // immortal, about 2 MiB
  return *W;
}

uint64_t clockNs(clockid_t Id) {
  timespec Ts;
  clock_gettime(Id, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

bool acquireDrain(DrainWait Wait) {
  pid_t Me = currentTid();
  for (unsigned Spin = 0;; ++Spin) {
    pid_t Free = 0;
    if (DrainOwner.compare_exchange_strong(Free, Me, std::memory_order_acquire))
      return true;
    if (Free == Me)
      return false; // we crashed inside a pass: its state is not to be trusted
    if (Wait == DrainWait::AtExit) {
      // Bounded: a pass takes milliseconds; a thread stuck holding the lock
      // (it crashed inside a pass) must not hang the exit.
      if (Spin + 1 >= AtExitTries)
        return false;
    } else if (shutDown()) {
      return false;
    }
    if (Wait == DrainWait::Running && Spin < 100)
      sched_yield();
    else {
      timespec Ts{0, 50000};
      nanosleep(&Ts, nullptr);
    }
  }
}

void releaseDrain() { DrainOwner.store(0, std::memory_order_release); }

void prepareWriter() noexcept {
  // Construct the writer's statics now, in ensureInit: a fork() while
  // another thread runs a function-local static's initializer would leave
  // the child waiting on that guard for ever.
  writerState();
  control();
}

void ensureWriter() noexcept {
  if (WriterRunning.load(std::memory_order_acquire) || shutDown())
    return;
  Control &C = control();
  std::lock_guard<std::mutex> G(C.Lock);
  if (C.Running)
    return;
  C.Stop = false;
  if (pthread_create(&C.Thread, nullptr, writerMain, nullptr) == 0) {
    C.Running = true;
    WriterRunning.store(true, std::memory_order_release);
  }
}

void wakeWriter() noexcept {
  if (WakeRequested.exchange(true))
    return;
  control().Wake.notify_one();
}

void stopWriter() noexcept {
  Control &C = control();
  pthread_t T;
  {
    std::lock_guard<std::mutex> G(C.Lock);
    if (!C.Running)
      return;
    C.Stop = true;
    C.Running = false;
    T = C.Thread;
  }
  C.Wake.notify_one();
  pthread_join(T, nullptr);
  WriterRunning.store(false, std::memory_order_release);
}

uint64_t drainOnce() noexcept {
  if (shutDown() || !acquireDrain())
    return 0;
  WriterState &W = writerState();
  uint64_t Moved = pass(W);
  flushOut(W);
  releaseDrain();
  return Moved;
}

void finishTrace(const char *How) noexcept {
  bool Locked = acquireDrain(DrainWait::AtExit);
  WriterState &W = writerState();
  if (Locked)
    pass(W);
  else if (W.OutLen == 0)
    openFile(W);
  // Regions still open: the crash (or exit) cut them short.
  uint64_t DroppedTotal = 0;
  for (ThreadRecord *R = threadList(); R; R = R->Next) {
    if (R->Life.load(std::memory_order_acquire) == ThreadRecord::Free)
      continue;
    ThreadState &T = R->State;
    DroppedTotal +=
        T.Dropped.load(rt::detail::MemOrder::Relaxed) + R->CapDropped;
    uint32_t Depth = T.Depth < MaxDepth ? T.Depth : MaxDepth;
    if (Depth && !R->Announced)
      announceThread(W, *R);
    for (uint32_t D = 0; D < Depth; ++D) {
      char *P = beginBlock(W, Block::Unfinished);
      P = putVarint(P, T.Index);
      P = putVarint(P, T.Stack[D].Site);
      P = putVarint(P, T.Stack[D].Start);
      P = putVarint(P, D);
      endBlock(W, P);
    }
  }
  // Records a failed write lost count as dropped too.
  DroppedTotal += W.LostRecords;
  if (W.Fd >= 0 || W.OutLen > 0 || siteCount() > 0) {
    writeClock(W);
    char *P = beginBlock(W, Block::End);
    P = putString(P, How);
    P = putVarint(P, DroppedTotal);
    endBlock(W, P);
    flushOut(W);
  }
  // The lock stays held: nothing may write after the End block.
}

bool HeldForFork = false;

void lockDrainForFork() noexcept { HeldForFork = acquireDrain(); }
void unlockDrainAfterFork() noexcept {
  if (HeldForFork)
    releaseDrain();
  HeldForFork = false;
}

void resetWriterInChild() noexcept {
  WriterState &W = writerState();
  if (W.Fd >= 0)
    ::close(W.Fd); // the parent's file: the child writes its own
  W.Fd = -1;
  W.Path[0] = '\0';
  W.OpenFailed = false;
  W.Tainted = false;
  W.Broken = false;
  W.WriteReported = false;
  W.PendingRecords = 0;
  W.LostRecords = 0;
  FileReady.store(false, std::memory_order_relaxed);
  W.OutLen = 0; // the parent's encoded bytes
  W.FileBytes = 0;
  W.SitesWritten = 0;
  W.NextStringId = 1;
  std::memset(W.Keys, 0, sizeof W.Keys);
  W.InBlock = false;
  W.LastTsc = 0;
  W.Anchors = 0;
  W.LastAnchorNs = 0;
  Control &C = control();
  new (&C.Lock) std::mutex();
  new (&C.Wake) std::condition_variable();
  C.Running = false;
  C.Stop = false;
  WriterRunning.store(false, std::memory_order_relaxed);
  WakeRequested.store(false, std::memory_order_relaxed);
  DrainOwner.store(0, std::memory_order_relaxed);
}

} // namespace sonde::rt::detail

namespace sonde {

void flush() noexcept { rt::detail::drainOnce(); }

const char *traceFile() noexcept { return rt::detail::tracePath(); }

} // namespace sonde
