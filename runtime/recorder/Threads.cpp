//===- Threads.cpp - Per-thread rings: attach, retire, reserve slow path --===//
//
// A thread gets a ring at its first event and keeps it until it exits; the
// ring then stays on the list until the writer has drained it, and is handed
// to the next new thread (so short-lived threads do not grow memory).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" const char sonde_abi_v3 = 3;

namespace sonde::rt::detail {

// The shared words of ThreadState and Site are laid out as std::atomic laid
// them out before sonde.h stopped including <atomic> (sonde/detail/
// Atomic.h): the ring layout, and its ABI token, did not change.
static_assert(sizeof(Atomic<uint64_t>) == sizeof(std::atomic<uint64_t>) &&
              alignof(Atomic<uint64_t>) == alignof(std::atomic<uint64_t>));
static_assert(sizeof(Atomic<uint32_t>) == sizeof(std::atomic<uint32_t>) &&
              alignof(Atomic<uint32_t>) == alignof(std::atomic<uint32_t>));

__thread ThreadState *Current = nullptr;
__thread uint64_t ApiCalls = 0;

namespace {

std::atomic<ThreadRecord *> Head{nullptr};
std::atomic<uint32_t> NextIndex{0};
pthread_key_t ExitKey;
pthread_once_t KeyOnce = PTHREAD_ONCE_INIT;
__thread pid_t CachedTid = 0;

void onThreadExit(void *P) {
  auto *R = static_cast<ThreadRecord *>(P);
  if (Current == &R->State)
    Current = nullptr;
  // Release: the writer that sees Retired sees every record published.
  R->Life.store(ThreadRecord::Retired, std::memory_order_release);
  wakeWriter();
}

void makeKey() { pthread_key_create(&ExitKey, onThreadExit); }

ThreadRecord *allocate() {
  const Config &C = config();
  auto *R = new (std::nothrow) ThreadRecord;
  if (!R)
    return nullptr;
  void *Ring = nullptr;
  // Rings of 2 MiB and more are aligned to huge pages and asked to be
  // backed by them: a 4 MiB ring is then 2 page faults instead of 1024
  // (about 15 ms at a thread's first record in this VM, a fixed cost that
  // was 4 % of a short training run) and 2 TLB entries on the hot path.
  constexpr size_t HugePage = size_t(2) << 20;
  size_t Align = C.RingBytes >= HugePage ? HugePage : 64;
  if (posix_memalign(&Ring, Align, C.RingBytes) != 0) {
    delete R;
    return nullptr;
  }
#ifdef MADV_HUGEPAGE
  if (Align == HugePage)
    madvise(Ring, C.RingBytes, MADV_HUGEPAGE); // advice: failure is fine
#endif
  // Touch every page now: a first-touch fault on the hot path costs
  // microseconds (more in a VM), and a ring is reused for good.
  std::memset(Ring, 0, C.RingBytes);
  R->State.Data = static_cast<char *>(Ring);
  R->State.Mask = C.RingBytes - 1;
  R->State.Stack = new (std::nothrow) OpenRegion[MaxDepth];
  R->State.Frames =
      static_cast<uint16_t *>(std::calloc(MaxFrameSites, sizeof(uint16_t)));
  if (!R->State.Stack || !R->State.Frames)
    return nullptr; // leaks a little, once, under memory exhaustion
  return R;
}

/// Takes a drained record of an exited thread, if any.
ThreadRecord *reuse() {
  for (ThreadRecord *R = Head.load(std::memory_order_acquire); R; R = R->Next) {
    int Expected = ThreadRecord::Free;
    if (R->Life.load(std::memory_order_relaxed) == Expected &&
        R->Life.compare_exchange_strong(Expected, ThreadRecord::Retired,
                                        std::memory_order_acquire))
      return R; // Retired until set up: the writer skips drained records
  }
  return nullptr;
}

} // namespace

pid_t currentTid() noexcept {
  if (!CachedTid)
    CachedTid = static_cast<pid_t>(syscall(SYS_gettid));
  return CachedTid;
}

ThreadRecord *threadList() noexcept {
  return Head.load(std::memory_order_acquire);
}

// A zero-capacity ring for when memory runs out: every reserve drops.
// Namespace-scope and constant-initialized: no guard a fork could strand.
OpenRegion SinkStack[MaxDepth];
uint16_t SinkFrames[MaxFrameSites];
ThreadState Sink;

ThreadState *attachThread(const char &) noexcept {
  ensureInit();
  pthread_once(&KeyOnce, [] {
    makeKey();
    Sink.Stack = SinkStack;
    Sink.Frames = SinkFrames;
  });
  bool Fresh = false;
  ThreadRecord *R = reuse();
  if (!R) {
    R = allocate();
    Fresh = true;
  }
  if (!R)
    return &Sink;
  ThreadState &T = R->State;
  // Nobody reads a Free record's producer fields: start from where the
  // previous owner stopped, so positions stay monotonic for the writer.
  // First reserve takes the slow path and computes the limit.
  T.Limit = T.Published.load(rt::detail::MemOrder::Relaxed);
  T.Depth = 0;
  std::memset(T.Frames, 0, MaxFrameSites * sizeof(uint16_t));
  T.Dropped.store(0, rt::detail::MemOrder::Relaxed);
  T.Index = NextIndex.fetch_add(1, std::memory_order_relaxed);
  CachedTid = 0;
  R->Tid = currentTid();
  R->Name[0] = '\0';
  pthread_getname_np(pthread_self(), R->Name, sizeof R->Name);
  R->Announced = false;
  R->WrittenDropped = 0;
  R->CapDropped = 0;
  if (Fresh) {
    ThreadRecord *Old = Head.load(std::memory_order_relaxed);
    do
      R->Next = Old;
    while (!Head.compare_exchange_weak(Old, R, std::memory_order_release,
                                       std::memory_order_relaxed));
  } else {
    R->Life.store(ThreadRecord::Active, std::memory_order_release);
  }
  Current = &T;
  pthread_setspecific(ExitKey, R);
  ensureWriter();
  openTraceNow();
  return &T;
}

char *reserveSlow(ThreadState *T, uint32_t Bytes) noexcept {
  const uint64_t Cap = T->Mask + 1;
  if (Cap <= 1 || Bytes > Cap / 2) { // the sink, or a record that never fits
    T->Dropped.store(T->Dropped.load(rt::detail::MemOrder::Relaxed) + 1,
                     rt::detail::MemOrder::Relaxed);
    return nullptr;
  }
  unsigned Waits = 0;
  for (;;) {
    uint64_t Consumed = T->Consumed.load(rt::detail::MemOrder::Acquire);
    uint64_t Head = T->Published.load(rt::detail::MemOrder::Relaxed);
    uint64_t Off = Head & T->Mask;
    if (Off + Bytes > Cap) {
      // The record would straddle the end: pad to the end and wrap. The pad
      // itself needs room, and its size goes in the Site field (it can be
      // larger than a record's u16 size).
      uint64_t PadBytes = Cap - Off;
      if (Head + PadBytes <= Consumed + Cap) {
        detail::putHeader(T->Data + Off, 0, RecType::Pad, 0,
                          static_cast<uint32_t>(PadBytes));
        T->Published.store(Head + PadBytes, rt::detail::MemOrder::Release);
        continue;
      }
    } else if (Head + Bytes <= Consumed + Cap) {
      uint64_t NextWrap = (Head | T->Mask) + 1;
      uint64_t Room = Consumed + Cap;
      T->Limit = Room < NextWrap ? Room : NextWrap;
      return T->Data + Off;
    }
    // Full.
    if (config().DropWhenFull || shutDown()) {
      T->Dropped.store(T->Dropped.load(rt::detail::MemOrder::Relaxed) + 1,
                       rt::detail::MemOrder::Relaxed);
      return nullptr;
    }
    // Block: wake the writer and wait for room. After a while, drain
    // ourselves: the writer may not be there (a forked child that has not
    // started one yet).
    wakeWriter();
    if (++Waits < 64) {
      sched_yield();
    } else if (Waits % 256 == 0) {
      drainOnce();
    } else {
      timespec Ts{0, 20000};
      nanosleep(&Ts, nullptr);
    }
  }
}

void resetThreadsInChild() noexcept {
  ThreadState *Mine = Current;
  for (ThreadRecord *R = threadList(); R; R = R->Next) {
    // The parent writes what was pending at fork; the child starts empty.
    R->State.Consumed.store(
        R->State.Published.load(rt::detail::MemOrder::Relaxed),
        rt::detail::MemOrder::Relaxed);
    R->Announced = false;
    R->WrittenDropped = 0;
    R->CapDropped = 0;
    R->State.Dropped.store(0, rt::detail::MemOrder::Relaxed);
    if (&R->State == Mine) {
      R->Tid = static_cast<pid_t>(syscall(SYS_gettid));
      CachedTid = R->Tid;
    } else if (R->Life.load(std::memory_order_relaxed) != ThreadRecord::Free) {
      // Threads other than the forking one do not exist in the child.
      R->Life.store(ThreadRecord::Free, std::memory_order_relaxed);
    }
  }
}

} // namespace sonde::rt::detail

namespace sonde {

void setThreadName(const char *Name) noexcept {
  if (!Name)
    return;
  auto *R = reinterpret_cast<rt::detail::ThreadRecord *>(rt::detail::thread());
  if (R->State.Mask == 0)
    return; // the sink
  std::strncpy(R->Name, Name, sizeof R->Name - 1);
  R->Name[sizeof R->Name - 1] = '\0';
  R->NameVersion.fetch_add(1, std::memory_order_release);
}

} // namespace sonde
