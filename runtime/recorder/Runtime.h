//===- Runtime.h - libsonde internals shared by its .cpp files -*- C++ -*-===//
//
// The slow side of libsonde: the site registry, per-thread ring ownership,
// the writer (draining and encoding), and the process lifecycle (first use,
// exit, signals, fork). Nothing here is on a probe's fast path.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_LIB_RUNTIME_H
#define SONDE_LIB_RUNTIME_H

#include "Env.h"
#include "sonde/sonde.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <sys/types.h>

namespace sonde::rt::detail {

/// A thread's ring plus what the runtime keeps about it. `State` comes first
/// so a ThreadState pointer is a ThreadRecord pointer.
struct ThreadRecord {
  ThreadState State;

  enum Status : int { Active = 0, Retired = 1, Free = 2 };
  /// Written by the owner (Active, Retired) and the writer (Free), and by a
  /// new owner taking a Free record (Free -> Active, by CAS).
  std::atomic<int> Life{Active};
  /// Immutable once the record is pushed on the list.
  ThreadRecord *Next = nullptr;

  // Written by the owner before it publishes Active; read by the writer.
  pid_t Tid = 0;
  char Name[32] = {};
  std::atomic<uint32_t> NameVersion{0};

  // Written by whoever holds the drain lock only.
  bool Announced = false;
  uint32_t AnnouncedName = 0;
  uint64_t WrittenDropped = 0;
  /// Records of this thread the writer dropped past SONDE_MAX_BYTES.
  uint64_t CapDropped = 0;
  /// When the background writer first left records in this ring (its lag
  /// behind a busy producer), CLOCK_MONOTONIC ns; 0 when it left none.
  /// Bounds how long a slow producer's records wait (SONDE_FLUSH_DELAY).
  uint64_t HeldSinceNs = 0;
};

/// Settings read once from the environment at first use.
struct Config {
  bool DropWhenFull = false;     ///< SONDE_ON_FULL=drop
  bool AbortOnCheck = false;     ///< SONDE_ON_CHECK=abort
  uint64_t RingBytes = 4u << 20; ///< SONDE_BUFFER_SIZE, a power of two
  char OutputDir[1024] = ".";    ///< SONDE_OUTPUT
  uint64_t MaxBytes = 0;         ///< SONDE_MAX_BYTES; 0: no cap
  /// SONDE_FLUSH_DELAY: a record is in the file at most this long (ns)
  /// after it is made, while the writer thread runs.
  uint64_t FlushDelayNs = env::DefaultFlushDelayNs;
  uint64_t Rank = 0;    ///< RANK (or a launcher's rank variable)
  uint64_t StartNs = 0; ///< CLOCK_REALTIME at first use (or at fork)
  /// LOCAL_RANK and WORLD_SIZE (or a launcher's), all ones when not given,
  /// and the launcher (World.h: env, openmpi, pmi, slurm; "": none).
  uint64_t LocalRank = ~uint64_t(0);
  uint64_t WorldSize = ~uint64_t(0);
  const char *Launcher = "";
  /// SONDE_TEST_CLOCK_OFFSET's shift for this rank (a simulated host).
  int64_t ClockShiftNs = 0;
};

/// Initializes the runtime once: environment, signal handlers, fork and exit
/// hooks. Safe to call from any thread, any number of times.
void ensureInit() noexcept;
const Config &config() noexcept;
/// True once the process has written its final records.
bool shutDown() noexcept;
/// Writes the final records now, ended as `How`, once per process (as exit
/// and the signal handlers do); the process is about to end.
void finishNow(const char *How) noexcept;

// --- Sites (Registry.cpp) -------------------------------------------------

/// The number of registered sites; ids are 1..siteCount(). Lock-free.
uint32_t siteCount() noexcept;
/// The site with this id. EXPECTS: 1 <= Id <= siteCount().
const Site *siteById(uint32_t Id) noexcept;
/// Reads SONDE_ENABLE / SONDE_DISABLE into the rule list.
void loadEnableRules() noexcept;
/// Says on stderr, once per rule, which SONDE_ENABLE / SONDE_DISABLE items
/// matched no site of the run (a misspelled category). At a normal exit.
void reportUnmatchedRules() noexcept;
/// For fork: the registry lock, held across fork() by the forking thread.
void lockRegistry() noexcept;
void unlockRegistry() noexcept;
void resetRegistryLockInChild() noexcept;

// --- Threads (Threads.cpp) ------------------------------------------------

/// The head of the list of every thread record ever made. Lock-free reads.
ThreadRecord *threadList() noexcept;
/// For fork: forgets every other thread's pending records in the child.
void resetThreadsInChild() noexcept;

// --- The writer (WriterThread.cpp, TraceFile.cpp; see WriterState.h) -----

/// Builds the writer's state (called once, by ensureInit).
void prepareWriter() noexcept;
/// Starts the writer thread if it is not running.
void ensureWriter() noexcept;
/// Wakes the writer (a producer is waiting for room).
void wakeWriter() noexcept;
/// Stops the writer thread and waits for it. Idempotent.
void stopWriter() noexcept;
/// Drains every ring once, in the calling thread. Returns bytes consumed.
/// Takes the drain lock (waits for it); returns 0 if it cannot.
uint64_t drainOnce() noexcept;
/// Writes the end of the trace: everything pending, unfinished regions, a
/// final clock anchor and the End block with `How`. Async-signal-safe: no
/// allocation, no locks other than the drain lock (waited for, bounded).
void finishTrace(const char *How) noexcept;
/// For fork: held by the forking thread across fork().
void lockDrainForFork() noexcept;
void unlockDrainAfterFork() noexcept;
void resetWriterInChild() noexcept;
/// Opens the trace file and writes its preamble now, if that was not done
/// (or tried) yet: at a thread's first record, so the process record is in
/// the file from the start and the cost is paid before anything is timed.
void openTraceNow() noexcept;
/// The path of the trace file, or "" if none is open yet.
const char *tracePath() noexcept;

// --- Clocks (ClockSync.cpp) ------------------------------------------------

/// CLOCK_REALTIME or CLOCK_MONOTONIC in ns, with the simulated shift.
uint64_t shiftedClockNs(clockid_t Id) noexcept;
/// The boot id the trace records (ClockShift.h), NUL-terminated.
void readBootId(char *Out, size_t Size) noexcept;
/// The clock exchange's result (sonde/detail/ClockSync.h), once there is
/// one; RefBoot stays valid.
bool clockSync(int64_t &OffsetNs, int64_t &UncertaintyNs, uint64_t &RefRank,
               const char *&RefBoot) noexcept;

/// The kernel thread id, cached per thread.
pid_t currentTid() noexcept;

} // namespace sonde::rt::detail

#endif // SONDE_LIB_RUNTIME_H
