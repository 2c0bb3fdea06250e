//===- WriterState.h - The writer state its three parts share ---*- C++ -*-===//
//
// libsonde's writer is three files: TraceFile.cpp (creating the trace file,
// its preamble, writing blocks out, what a failed write or a full disk
// leaves), Encoder.cpp (a ring's raw records into the compact file encoding
// of runtime/format/TraceFormat.h) and WriterThread.cpp (the drain lock, the
// background thread and its wake-ups, flush, the end of the trace, fork).
// This header is what they share: the state only the holder of the drain
// lock touches, and the calls between them. Runtime.h declares what the
// rest of libsonde calls.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_RECORDER_WRITERSTATE_H
#define SONDE_RECORDER_WRITERSTATE_H

#include "Runtime.h"
#include "TraceFormat.h"

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <ctime>

namespace sonde::rt::detail {

constexpr size_t OutCapacity = 2u << 20;
/// Close an Events block and flush when less than this is left.
constexpr size_t OutReserve = 128u << 10;
constexpr size_t MaxBlockPayload = 256u << 10;
constexpr uint32_t KeySlots = 4096;

struct KeySlot {
  uintptr_t Ptr;
  uint32_t Id;
};

/// What the encoder remembers of a site's last integer watch in the open
/// Events block, to write the next one as a difference (Ev::WatchDelta).
/// A table indexed by site id modulo IntSlots: a site that lost its slot
/// to another simply writes its next value whole.
constexpr uint32_t IntSlots = 256;
struct IntSlot {
  uint32_t Site;
  ValueTag Tag;
  uint64_t Block; ///< WriterState::BlockNo of the block it was written in
  uint64_t Bits;
};

/// Everything below is touched only by the holder of the drain lock.
struct WriterState {
  int Fd = -1;
  char Path[PATH_MAX] = {};
  bool OpenFailed = false;
  /// A write failed and the file was cut back to its last whole block:
  /// what Out holds may use definitions (sites, keys, threads) that were
  /// lost, so it is dropped too, and the next pass defines them again.
  bool Tainted = false;
  /// The file could not be cut back: nothing more is written.
  bool Broken = false;
  bool WriteReported = false;
  /// Records encoded into Out since the last flush, and records lost.
  uint64_t PendingRecords = 0;
  uint64_t LostRecords = 0;
  char Out[OutCapacity];
  size_t OutLen = 0;
  uint64_t FileBytes = 0; ///< the file's size: whole blocks only
  uint32_t SitesWritten = 0;
  uint32_t NextStringId = 1;
  KeySlot Keys[KeySlots] = {};
  // The open Events block, if any.
  size_t BlockStart = 0; ///< offset of its type byte in Out
  bool InBlock = false;
  uint64_t LastTsc = 0;
  uint32_t BlockLevel = 0; ///< the open block's level for instants, watches
  /// Numbers the Events blocks: a slot of another block is no base for a
  /// difference (each block reads alone). Starts at 1 with the first.
  uint64_t BlockNo = 0;
  IntSlot Ints[IntSlots] = {};
  uint64_t LastAnchorNs = 0;
  uint32_t Anchors = 0;
};

/// The writer's state: immortal, built by prepareWriter.
WriterState &writerState();

/// Set once the trace file has been opened (or could not be).
extern std::atomic<bool> FileReady;

/// Nanoseconds on clock `Id`.
uint64_t clockNs(clockid_t Id);

// --- The drain lock (WriterThread.cpp) -----------------------------------

/// How a thread waits for the drain lock another thread holds.
enum class DrainWait {
  /// Until it is free, unless the process has shut down meanwhile (the
  /// writer thread, flush, a producer waiting for room, fork).
  Running,
  /// About a second at most, even after shutdown (finishTrace, which runs
  /// after it): the holder may have crashed inside a pass.
  AtExit,
};

/// Takes the drain lock (0 when free, else the kernel tid of its holder),
/// waiting as `Wait` says. Fails when the calling thread holds it already
/// (it crashed inside a pass: the pass's state is not to be trusted).
bool acquireDrain(DrainWait Wait = DrainWait::Running);
void releaseDrain();

// --- The trace file (TraceFile.cpp) ----------------------------------------

/// Opens the trace file and writes its preamble, once; false if there is
/// no file (it could not be created: said on stderr once).
bool openFile(WriterState &W);
/// Writes Out to the file; what cannot be written is counted as lost.
void flushOut(WriterState &W);
/// After a failed write: what the lost bytes defined is defined again
/// before the records that use it.
void redefineAfterLoss(WriterState &W);
/// Starts a block in Out; the caller writes at most OutReserve bytes of
/// payload from the returned pointer, then calls endBlock.
char *beginBlock(WriterState &W, format::Block B);
void endBlock(WriterState &W, char *End);
/// A string's encoding (varint length, at most `MaxLen` bytes).
char *putString(char *P, const char *S, size_t MaxLen = 4096);
/// A Clock block: a (tsc, realtime, monotonic) anchor.
void writeClock(WriterState &W);

// --- The encoder (Encoder.cpp) -----------------------------------------------

/// A Thread block for `R` (its index, tid and name).
void announceThread(WriterState &W, ThreadRecord &R);
/// Encodes what ring `R` published since the last pass, up to `Lag` bytes
/// short of its end, and advances its Consumed position. Returns the bytes
/// consumed. EXPECTS: the drain lock is held.
uint64_t drainRing(WriterState &W, ThreadRecord &R, uint64_t Lag);

} // namespace sonde::rt::detail

#endif // SONDE_RECORDER_WRITERSTATE_H
