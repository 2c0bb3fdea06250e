//===- TraceFile.cpp - The trace file: opening, blocks, write errors ------===//
//
// The one file a process writes: its name (`<program>-<rank>-<pid>.sonde`,
// never overwriting), its preamble (file header, Process block, a clock
// anchor) written at once, and the blocks the encoder puts in Out, written
// out whole. When the file cannot be created, or a write fails (a full
// disk), it says so once on stderr and keeps the file readable: a torn
// block is cut off, and what was lost is counted as dropped records. Runs on
// the crash path too: no allocation, only async-signal-safe calls.
//
//===----------------------------------------------------------------------===//

#include "WriterState.h"
#include "sonde/detail/ClockSync.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char *program_invocation_short_name;

namespace sonde::rt::detail {

using format::Block;
using format::putVarint;

namespace {

/// False when the data could not all be written (errno says why; a short
/// write that makes no progress is ENOSPC).
bool writeAll(int Fd, const char *P, size_t N) {
  while (N > 0) {
    ssize_t W = ::write(Fd, P, N);
    if (W < 0) {
      if (errno == EINTR)
        continue;
      return false; // a full disk: lose the data rather than spin
    }
    if (W == 0) {
      errno = ENOSPC;
      return false;
    }
    P += W;
    N -= static_cast<size_t>(W);
  }
  return true;
}

char *cat(char *P, const char *End, const char *S) {
  while (*S && P < End - 1)
    *P++ = *S++;
  *P = '\0';
  return P;
}

char *catNumber(char *P, const char *End, unsigned long long V) {
  char Digits[24];
  int N = 0;
  do
    Digits[N++] = static_cast<char>('0' + V % 10);
  while ((V /= 10) != 0);
  while (N > 0 && P < End - 1)
    *P++ = Digits[--N];
  *P = '\0';
  return P;
}

/// `sonde: WHAT 'PATH': DESCRIPTION (ENAME); THEN` on stderr, in one
/// write: the trace cannot be created or written. Async-signal-safe.
void sayFileError(const char *What, const char *Path, int Err,
                  const char *Then) {
  char Line[PATH_MAX + 256];
  char *End = Line + sizeof Line - 1; // room for the newline
  char *P = cat(Line, End, "sonde: ");
  P = cat(P, End, What);
  P = cat(P, End, " '");
  P = cat(P, End, Path);
  P = cat(P, End, "': ");
  const char *Desc = strerrordesc_np(Err);
  const char *Name = strerrorname_np(Err);
  P = cat(P, End, Desc ? Desc : "error");
  P = cat(P, End, " (");
  if (Name)
    P = cat(P, End, Name);
  else
    P = catNumber(cat(P, End, "errno "), End, static_cast<unsigned>(Err));
  P = cat(P, End, "); ");
  P = cat(P, End, Then);
  *P++ = '\n';
  ssize_t Ignored = ::write(STDERR_FILENO, Line, static_cast<size_t>(P - Line));
  (void)Ignored;
}

/// Fills in the header of a block whose payload ends at `End`.
void frameBlock(char *Start, Block B, const char *End) {
  auto Len = static_cast<uint32_t>(End - Start - format::BlockHeaderSize);
  Start[0] = static_cast<char>(B);
  for (int I = 0; I < 4; ++I)
    Start[1 + I] = static_cast<char>((Len >> (8 * I)) & 0xff);
}

/// A Clock block's payload; from format 1.4 with the clock exchange's
/// result once there is one.
char *putClock(WriterState &W, char *P) {
  uint64_t Tsc = now();
  uint64_t Real = shiftedClockNs(CLOCK_REALTIME);
  P = putVarint(P, Tsc);
  P = putVarint(P, Real);
  P = putVarint(P, shiftedClockNs(CLOCK_MONOTONIC));
  int64_t Offset = 0, Uncertainty = 0;
  uint64_t RefRank = 0;
  const char *RefBoot = nullptr;
  if (clockSync(Offset, Uncertainty, RefRank, RefBoot)) {
    P = putVarint(P, format::zigzag(Offset));
    P = putVarint(P, static_cast<uint64_t>(Uncertainty));
    P = putVarint(P, RefRank);
    P = putString(P, RefBoot, MaxBootIdBytes);
  }
  // The writer times the next anchor on the unshifted wall clock.
  W.LastAnchorNs =
      static_cast<uint64_t>(static_cast<int64_t>(Real) - config().ClockShiftNs);
  ++W.Anchors;
  return P;
}

/// The trace file cannot be created, or its preamble not written: says so
/// once, and no file is tried again. Returns false, for openFile.
bool openFailed(WriterState &W, const char *What, int Err) {
  sayFileError(What, W.Path, Err, "this run is not recorded");
  W.OpenFailed = true;
  W.Path[0] = '\0';
  FileReady.store(true, std::memory_order_release);
  return false;
}

} // namespace

/// Set once the trace file has been opened (or could not be).
std::atomic<bool> FileReady{false};

char *putString(char *P, const char *S, size_t MaxLen) {
  size_t N = S ? strnlen(S, MaxLen) : 0;
  P = putVarint(P, N);
  std::memcpy(P, S, N);
  return P + N;
}

void writeClock(WriterState &W) {
  char *P = beginBlock(W, Block::Clock);
  endBlock(W, putClock(W, P));
}

/// Opens the trace file and writes its preamble: the file header, the
/// Process block and a clock anchor, at once and before anything else, so
/// a process that ends in any way from here on (even `_exit`) leaves a file
/// that says whose it is. Never overwrites a file. Says on stderr, once,
/// when the file cannot be created or its preamble not written.
bool openFile(WriterState &W) {
  if (W.Fd >= 0)
    return true;
  if (W.OpenFailed)
    return false;
  const char *Dir = config().OutputDir;
  mkdir(Dir, 0777); // one level; an existing directory is fine
  const uint64_t Rank = config().Rank;
  for (unsigned Try = 0; Try < 100; ++Try) {
    char *End = W.Path + sizeof W.Path;
    char *P = cat(W.Path, End, Dir);
    P = cat(P, End, "/");
    P = cat(P, End, program_invocation_short_name);
    P = cat(P, End, "-");
    P = catNumber(P, End, Rank);
    P = cat(P, End, "-");
    P = catNumber(P, End, static_cast<unsigned long long>(getpid()));
    if (Try) {
      P = cat(P, End, ".");
      P = catNumber(P, End, Try);
    }
    cat(P, End, ".sonde");
    W.Fd = ::open(W.Path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (W.Fd >= 0)
      break;
    if (errno != EEXIST)
      break;
  }
  if (W.Fd < 0)
    return openFailed(W, "cannot create the trace file", errno);
  // Host and program name 256 bytes each, boot id 96, launcher 16, a
  // clock anchor with an exchange's result (96 + 4 varints), varints:
  // under it.
  char Pre[format::FileHeaderSize + 2 * format::BlockHeaderSize + 1024] = {};
  std::memcpy(Pre, format::Magic, 8);
  Pre[8] = static_cast<char>(format::Major);
  Pre[10] = static_cast<char>(format::Minor);

  char *Start = Pre + format::FileHeaderSize;
  char *P = Start + format::BlockHeaderSize;
  P = putVarint(P, static_cast<uint64_t>(getpid()));
  P = putVarint(P, static_cast<uint64_t>(getppid()));
  P = putVarint(P, Rank);
  char Host[256] = {};
  gethostname(Host, sizeof Host - 1);
  P = putString(P, Host, sizeof Host);
  P = putString(P, program_invocation_short_name, 256);
  P = putVarint(P, config().StartNs);
  // Format 1.1: the boot id, so `sonde merge` knows which files share
  // CLOCK_MONOTONIC (a simulated host's, ClockShift.h).
  char Boot[MaxBootIdBytes];
  readBootId(Boot, sizeof Boot);
  P = putString(P, Boot, sizeof Boot);
  // Format 1.3: where the process stands in a distributed job.
  P = putVarint(P, format::worldField(config().LocalRank));
  P = putVarint(P, format::worldField(config().WorldSize));
  P = putString(P, config().Launcher, 16);
  frameBlock(Start, Block::Process, P);
  Start = P;
  P = putClock(W, Start + format::BlockHeaderSize);
  frameBlock(Start, Block::Clock, P);
  size_t Size = static_cast<size_t>(P - Pre);
  if (!writeAll(W.Fd, Pre, Size)) {
    int Err = errno;
    ::close(W.Fd);
    ::unlink(W.Path); // ours (O_EXCL), and without a preamble no trace
    W.Fd = -1;
    return openFailed(W, "cannot write the trace file", Err);
  }
  W.FileBytes = Size;
  FileReady.store(true, std::memory_order_release);
  return true;
}

namespace {

/// A write failed: cut the file back to its last whole block (a torn block
/// in the middle would hide every block after it from the reader), and
/// drop what Out holds, counted. Says so once.
void writeFailed(WriterState &W, int Err) {
  if (!W.WriteReported) {
    sayFileError("cannot write the trace file", W.Path, Err,
                 "what could not be written is counted as dropped records");
    W.WriteReported = true;
  }
  auto Whole = static_cast<off_t>(W.FileBytes);
  if (::ftruncate(W.Fd, Whole) != 0 || ::lseek(W.Fd, Whole, SEEK_SET) != Whole)
    W.Broken = true; // a torn block stays: write nothing after it
  W.Tainted = true;
}

} // namespace

void flushOut(WriterState &W) {
  if (W.OutLen == 0)
    return;
  bool Written = false;
  if (!W.Tainted && !W.Broken && openFile(W)) {
    Written = writeAll(W.Fd, W.Out, W.OutLen);
    if (Written)
      W.FileBytes += W.OutLen;
    else
      writeFailed(W, errno);
  }
  if (!Written)
    W.LostRecords += W.PendingRecords;
  W.PendingRecords = 0;
  W.OutLen = 0;
}

void redefineAfterLoss(WriterState &W) {
  W.SitesWritten = 0;
  std::memset(W.Keys, 0, sizeof W.Keys);
  for (ThreadRecord *R = threadList(); R; R = R->Next) {
    R->Announced = false;
    R->WrittenDropped = 0;
  }
  W.Tainted = false;
}

/// Starts a block in Out; the caller writes at most OutReserve bytes of
/// payload from the returned pointer, then calls endBlock.
char *beginBlock(WriterState &W, Block B) {
  if (W.OutLen + OutReserve > OutCapacity)
    flushOut(W);
  W.BlockStart = W.OutLen;
  W.Out[W.OutLen] = static_cast<char>(B);
  return W.Out + W.OutLen + format::BlockHeaderSize;
}

void endBlock(WriterState &W, char *End) {
  frameBlock(W.Out + W.BlockStart, static_cast<Block>(W.Out[W.BlockStart]),
             End);
  W.OutLen = static_cast<size_t>(End - W.Out);
}

void openTraceNow() noexcept {
  if (FileReady.load(std::memory_order_acquire) || shutDown() ||
      !acquireDrain())
    return;
  openFile(writerState());
  releaseDrain();
}

const char *tracePath() noexcept { return writerState().Path; }

} // namespace sonde::rt::detail
