//===- Writer.cpp - Drains the rings and writes the trace file ------------===//
//
// One writer per process. A pass takes the drain lock, and for every ring
// encodes the records published since the last pass into the compact file
// encoding (docs/trace-format.md), then advances the ring's Consumed
// position. The same pass runs from the writer thread, from flush(), from a
// producer that waits for room, and from the exit and crash paths, so it
// allocates nothing and calls only async-signal-safe functions.
//
//===----------------------------------------------------------------------===//

#include "TraceFormat.h"
#include "Runtime.h"

#include <cerrno>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <mutex>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

extern char *program_invocation_short_name;

namespace sonde::rt::detail {
namespace {

using format::Block;
using format::Ev;
using format::putVarint;
using format::Val;

constexpr size_t OutCapacity = 2u << 20;
/// Close an Events block and flush when less than this is left.
constexpr size_t OutReserve = 128u << 10;
constexpr size_t MaxBlockPayload = 256u << 10;
constexpr uint32_t KeySlots = 4096;
/// How far the background writer stays behind a busy producer.
constexpr uint64_t DrainLag = 64u << 10;

struct KeySlot {
  uintptr_t Ptr;
  uint32_t Id;
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
  uint64_t LastAnchorNs = 0;
  uint32_t Anchors = 0;
};

WriterState &state() {
  static WriterState *W = new WriterState; // immortal, about 2 MiB
  return *W;
}

/// Set once the trace file has been opened (or could not be).
std::atomic<bool> FileReady{false};

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

uint64_t clockNs(clockid_t Id) {
  timespec Ts;
  clock_gettime(Id, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

bool acquireDrain(bool Wait) {
  pid_t Me = currentTid();
  for (unsigned Spin = 0;; ++Spin) {
    pid_t Free = 0;
    if (DrainOwner.compare_exchange_strong(Free, Me, std::memory_order_acquire))
      return true;
    if (Free == Me || !Wait || shutDown())
      return false;
    if (Spin < 100)
      sched_yield();
    else {
      timespec Ts{0, 50000};
      nanosleep(&Ts, nullptr);
    }
  }
}

void releaseDrain() { DrainOwner.store(0, std::memory_order_release); }

// --- Output ----------------------------------------------------------------

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

void flushOut(WriterState &W);
char *beginBlock(WriterState &W, Block B);
void endBlock(WriterState &W, char *End);

/// Fills in the header of a block whose payload ends at `End`.
void frameBlock(char *Start, Block B, const char *End) {
  auto Len = static_cast<uint32_t>(End - Start - format::BlockHeaderSize);
  Start[0] = static_cast<char>(B);
  for (int I = 0; I < 4; ++I)
    Start[1 + I] = static_cast<char>((Len >> (8 * I)) & 0xff);
}

char *putString(char *P, const char *S, size_t MaxLen = 4096) {
  size_t N = S ? strnlen(S, MaxLen) : 0;
  P = putVarint(P, N);
  std::memcpy(P, S, N);
  return P + N;
}

/// A Clock block's payload.
char *putClock(WriterState &W, char *P) {
  uint64_t Tsc = now();
  uint64_t Real = clockNs(CLOCK_REALTIME);
  P = putVarint(P, Tsc);
  P = putVarint(P, Real);
  P = putVarint(P, clockNs(CLOCK_MONOTONIC));
  W.LastAnchorNs = Real;
  ++W.Anchors;
  return P;
}

void writeClock(WriterState &W) {
  char *P = beginBlock(W, Block::Clock);
  endBlock(W, putClock(W, P));
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
  // Host and program name 256 bytes each, boot id 64, varints: under it.
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
  // CLOCK_MONOTONIC. open/read only: this may run on the crash path.
  char Boot[64] = {};
  int BootFd = ::open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (BootFd >= 0) {
    ssize_t N = ::read(BootFd, Boot, sizeof Boot - 1);
    ::close(BootFd);
    Boot[N > 0 ? N : 0] = '\0';
    for (char *C = Boot; *C; ++C)
      if (*C == '\n')
        *C = '\0';
  }
  P = putString(P, Boot, sizeof Boot);
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

/// After a failed write: what the lost bytes defined is defined again
/// before the records that use it.
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

// --- Sites, strings, threads ----------------------------------------------

void writeSite(WriterState &W, uint32_t Id, const Site &S) {
  char *P = beginBlock(W, Block::Site);
  P = putVarint(P, Id);
  *P++ = static_cast<char>(S.Kind);
  *P++ = static_cast<char>(S.Flags);
  P = putVarint(P, S.Line);
  P = putVarint(P, S.StableId);
  for (const char *Str :
       {S.Category, S.Name, S.File, S.Function, S.Args, S.Type})
    P = putString(P, Str ? Str : "", 1024);
  endBlock(W, P);
}

void writeNewSites(WriterState &W) {
  uint32_t N = siteCount();
  for (uint32_t Id = W.SitesWritten + 1; Id <= N; ++Id)
    writeSite(W, Id, *siteById(Id));
  W.SitesWritten = N;
}

/// The id of an object key (a string literal's address), defining it in
/// the file the first time. Returns 0 when the table is full.
uint32_t keyId(WriterState &W, const char *Key, bool &Defined) {
  uintptr_t Ptr = reinterpret_cast<uintptr_t>(Key);
  uint32_t H = static_cast<uint32_t>((Ptr >> 3) * 2654435761u) % KeySlots;
  for (uint32_t I = 0; I < KeySlots; ++I) {
    KeySlot &S = W.Keys[(H + I) % KeySlots];
    if (S.Ptr == Ptr)
      return S.Id;
    if (S.Ptr == 0) {
      S.Ptr = Ptr;
      S.Id = W.NextStringId++;
      Defined = true;
      return S.Id;
    }
  }
  return 0;
}

void announceThread(WriterState &W, ThreadRecord &R) {
  char *P = beginBlock(W, Block::Thread);
  P = putVarint(P, R.State.Index);
  P = putVarint(P, static_cast<uint64_t>(R.Tid));
  P = putString(P, R.Name, sizeof R.Name);
  endBlock(W, P);
  R.Announced = true;
}

// --- Events ------------------------------------------------------------------

void closeEvents(WriterState &W, char *P) {
  if (W.InBlock)
    endBlock(W, P);
  W.InBlock = false;
}

char *openEvents(WriterState &W, const ThreadRecord &R) {
  char *P = beginBlock(W, Block::Events);
  P = putVarint(P, R.State.Index);
  P = putVarint(P, W.LastTsc);
  W.InBlock = true;
  W.BlockLevel = 0;
  return P;
}

/// Re-encodes one raw value (sonde.h's ValueWriter encoding) at `In`, no
/// further than `InEnd`. New object keys are collected in `NewKeys` and
/// defined by the caller before the block that uses them.
struct KeyDefs {
  const char *Keys[64];
  uint32_t Ids[64];
  unsigned N = 0;
};

char *encodeValue(WriterState &W, const char *&In, const char *InEnd, char *P,
                  KeyDefs &Defs, unsigned Depth = 0) {
  if (In >= InEnd || Depth > 32) {
    *P++ = static_cast<char>(Val::Truncated);
    In = InEnd;
    return P;
  }
  auto Tag = static_cast<ValueTag>(*In++);
  auto Need = [&](size_t N) { return static_cast<size_t>(InEnd - In) >= N; };
  switch (Tag) {
  case ValueTag::Null:
  case ValueTag::False:
  case ValueTag::True:
    *P++ = static_cast<char>(Tag);
    return P;
  case ValueTag::Int:
  case ValueTag::UInt:
  case ValueTag::Float: {
    if (!Need(8))
      break;
    uint64_t Bits;
    std::memcpy(&Bits, In, 8);
    In += 8;
    *P++ = static_cast<char>(Tag);
    if (Tag == ValueTag::Float) {
      std::memcpy(P, &Bits, 8);
      return P + 8;
    }
    return putVarint(P, Tag == ValueTag::Int
                            ? format::zigzag(static_cast<int64_t>(Bits))
                            : Bits);
  }
  case ValueTag::String: {
    if (!Need(2))
      break;
    uint16_t Len;
    std::memcpy(&Len, In, 2);
    In += 2;
    if (!Need(Len))
      break;
    *P++ = static_cast<char>(Val::String);
    P = putVarint(P, Len);
    std::memcpy(P, In, Len);
    In += Len;
    return P + Len;
  }
  case ValueTag::Object: {
    if (!Need(2))
      break;
    uint16_t Count;
    std::memcpy(&Count, In, 2);
    In += 2;
    *P++ = static_cast<char>(Val::Object);
    P = putVarint(P, Count);
    for (uint16_t I = 0; I < Count; ++I) {
      if (!Need(9) || static_cast<ValueTag>(*In) != ValueTag::Key) {
        P = putVarint(P, 0);
        *P++ = static_cast<char>(Val::Truncated);
        In = InEnd;
        return P;
      }
      const char *Key;
      std::memcpy(&Key, In + 1, sizeof Key);
      In += 9;
      bool Defined = false;
      uint32_t Id = keyId(W, Key, Defined);
      if (Defined && Defs.N < 64) {
        Defs.Keys[Defs.N] = Key;
        Defs.Ids[Defs.N++] = Id;
      }
      P = putVarint(P, Id);
      P = encodeValue(W, In, InEnd, P, Defs, Depth + 1);
      if (P[-1] == static_cast<char>(Val::Truncated) && In >= InEnd)
        return P;
    }
    return P;
  }
  case ValueTag::Array: {
    if (!Need(4))
      break;
    uint32_t Count;
    std::memcpy(&Count, In, 4);
    In += 4;
    *P++ = static_cast<char>(Val::Array);
    P = putVarint(P, Count);
    for (uint32_t I = 0; I < Count; ++I) {
      P = encodeValue(W, In, InEnd, P, Defs, Depth + 1);
      if (P[-1] == static_cast<char>(Val::Truncated) && In >= InEnd)
        return P;
    }
    return P;
  }
  case ValueTag::Truncated:
  case ValueTag::Key:
    break;
  }
  *P++ = static_cast<char>(Val::Truncated);
  In = InEnd;
  return P;
}

inline char *putEvent(char *P, uint32_t Site, Ev Type) {
  return putVarint(P, (static_cast<uint64_t>(Site) << 4) |
                          static_cast<uint64_t>(Type));
}

/// The head of an Instant or Watch record, whose ring header keeps the
/// nesting level above the site id: a Level record first when the level
/// differs from the block's (most records repeat their predecessor's).
inline char *putPointEvent(WriterState &W, char *P, uint32_t HeaderSite,
                           Ev Type) {
  uint32_t Level = HeaderSite >> SiteIdBits;
  if (Level != W.BlockLevel) {
    P = putEvent(P, Level, Ev::Level);
    W.BlockLevel = Level;
  }
  return putEvent(P, HeaderSite & SiteIdMask, Type);
}

inline char *putDelta(WriterState &W, char *P, uint64_t Tsc) {
  P = putVarint(P, format::zigzag(static_cast<int64_t>(Tsc - W.LastTsc)));
  W.LastTsc = Tsc;
  return P;
}

/// Encodes one raw record; returns the new output position.
char *encodeRecord(WriterState &W, const RecHeader &H, const char *Rec, char *P,
                   KeyDefs &Defs) {
  uint64_t Tsc;
  std::memcpy(&Tsc, Rec + 8, 8);
  switch (H.Type) {
  case RecType::Region:
  case RecType::RegionIt: {
    uint64_t Start;
    std::memcpy(&Start, Rec + 16, 8);
    P = putEvent(P, H.Site,
                 H.Type == RecType::Region ? Ev::Region : Ev::RegionIt);
    P = putDelta(W, P, Tsc);
    P = putVarint(P, Tsc >= Start ? Tsc - Start : 0);
    P = putVarint(P, H.Aux);
    if (H.Type == RecType::RegionIt) {
      uint64_t Iter;
      std::memcpy(&Iter, Rec + 24, 8);
      P = putVarint(P, Iter);
    }
    return P;
  }
  case RecType::Instant:
    P = putPointEvent(W, P, H.Site,
                      H.Aux == 1   ? Ev::InstantStart
                      : H.Aux == 2 ? Ev::InstantStop
                                   : Ev::Instant);
    return putDelta(W, P, Tsc);
  case RecType::Watch: {
    P = putPointEvent(W, P, H.Site, Ev::Watch);
    P = putDelta(W, P, Tsc);
    if (H.Aux & 0x80) { // a scalar: tag in Aux, 8 bytes at 16
      char Raw[9];
      Raw[0] = static_cast<char>(H.Aux & 0x7f);
      std::memcpy(Raw + 1, Rec + 16, 8);
      const char *In = Raw;
      return encodeValue(W, In, Raw + 9, P, Defs);
    }
    const char *In = Rec + 16;
    return encodeValue(W, In, Rec + H.Size, P, Defs);
  }
  case RecType::CtxPush: {
    P = putEvent(P, H.Site, Ev::CtxPush);
    P = putDelta(W, P, Tsc);
    P = putVarint(P, H.Aux);
    const char *In = Rec + 16;
    for (unsigned I = 0; I < H.Aux; ++I)
      P = encodeValue(W, In, Rec + H.Size, P, Defs);
    return P;
  }
  case RecType::CtxPop:
    P = putEvent(P, H.Site, Ev::CtxPop);
    return putDelta(W, P, Tsc);
  case RecType::Pad:
    break;
  }
  return P;
}

void defineKeys(WriterState &W, KeyDefs &Defs) {
  for (unsigned I = 0; I < Defs.N; ++I) {
    char *P = beginBlock(W, Block::String);
    P = putVarint(P, Defs.Ids[I]);
    P = putString(P, Defs.Keys[I], 256);
    endBlock(W, P);
  }
  Defs.N = 0;
}

/// Drains one ring up to what it had published when we looked, less `Lag`
/// bytes: the background writer stays off the cache lines the producer is
/// writing right now (chasing it there costs the producer 3x per record).
uint64_t drainRing(WriterState &W, ThreadRecord &R, uint64_t Lag) {
  ThreadState &T = R.State;
  uint64_t Pub = T.Published.load(std::memory_order_acquire);
  uint64_t Pos = T.Consumed.load(std::memory_order_relaxed);
  uint64_t Stop = Pub - Pos > 2 * Lag ? Pub - Lag : Pub;
  // Sites registered before these records were published are visible now.
  writeNewSites(W);
  if (!R.Announced && (Pos != Pub || T.Dropped.load(std::memory_order_relaxed)))
    announceThread(W, R);
  uint32_t NameV = R.NameVersion.load(std::memory_order_acquire);
  if (R.Announced && NameV != R.AnnouncedName) {
    announceThread(W, R);
    R.AnnouncedName = NameV;
  }
  uint64_t Start = Pos;
  char *P = nullptr;
  size_t BlockBytes = 0;
  const uint64_t Cap = config().MaxBytes;
  while (Pos < Stop) {
    const char *Rec = T.Data + (Pos & T.Mask);
    RecHeader H;
    std::memcpy(&H, Rec, sizeof H);
    if (H.Type == RecType::Pad) {
      if (H.Site < 8 || H.Site > Pub - Pos) { // corrupt: skip the rest
        Pos = Pub;
        break;
      }
      Pos += H.Site;
      continue;
    }
    if (H.Size < 16 || H.Size > Pub - Pos) { // corrupt: skip the rest
      Pos = Pub;
      break;
    }
    // SONDE_MAX_BYTES: past the cap a record is counted, not written (the
    // file may exceed it by one record and the closing blocks).
    if (Cap &&
        W.FileBytes + (W.InBlock ? static_cast<size_t>(P - W.Out) : W.OutLen) >=
            Cap) {
      ++R.CapDropped;
      Pos += H.Size;
      continue;
    }
    // Room for the worst case: a value re-encoded from raw can grow by a
    // varint per element, bounded by twice the raw size.
    if (!W.InBlock ||
        static_cast<size_t>(P - W.Out) + 2u * H.Size + 64 > OutCapacity ||
        BlockBytes > MaxBlockPayload) {
      closeEvents(W, P);
      P = openEvents(W, R);
      BlockBytes = 0;
    }
    char *Before = P;
    // The commonest records, inline: a scalar watch and a plain region.
    if (H.Type == RecType::Watch && (H.Aux & 0x80)) {
      uint64_t Tsc, Bits;
      std::memcpy(&Tsc, Rec + 8, 8);
      std::memcpy(&Bits, Rec + 16, 8);
      P = putPointEvent(W, P, H.Site, Ev::Watch);
      P = putDelta(W, P, Tsc);
      auto Tag = static_cast<ValueTag>(H.Aux & 0x7f);
      *P++ = static_cast<char>(Tag);
      if (Tag == ValueTag::Int)
        P = putVarint(P, format::zigzag(static_cast<int64_t>(Bits)));
      else if (Tag == ValueTag::UInt)
        P = putVarint(P, Bits);
      else if (Tag == ValueTag::Float) {
        std::memcpy(P, &Bits, 8);
        P += 8;
      }
    } else if (H.Type == RecType::Region) {
      uint64_t Tsc, Start;
      std::memcpy(&Tsc, Rec + 8, 8);
      std::memcpy(&Start, Rec + 16, 8);
      P = putEvent(P, H.Site, Ev::Region);
      P = putDelta(W, P, Tsc);
      P = putVarint(P, Tsc >= Start ? Tsc - Start : 0);
      *P++ = static_cast<char>(H.Aux); // the level: < 128 fits one byte
      if (H.Aux >= 0x80) {
        P[-1] = static_cast<char>(H.Aux | 0x80);
        *P++ = 1;
      }
    } else {
      KeyDefs Defs;
      uint64_t TscBefore = W.LastTsc;
      P = encodeRecord(W, H, Rec, P, Defs);
      if (Defs.N) {
        // Keys must be defined before the block that uses them: end the
        // block before this record, define, and encode it again in a new
        // block.
        W.LastTsc = TscBefore;
        closeEvents(W, Before);
        defineKeys(W, Defs);
        P = openEvents(W, R);
        P = encodeRecord(W, H, Rec, P, Defs);
        Defs.N = 0;
      }
    }
    BlockBytes += static_cast<size_t>(P - Before);
    ++W.PendingRecords;
    Pos += H.Size;
  }
  closeEvents(W, P);
  // Release: the producer reuses the space only after we are done reading.
  T.Consumed.store(Pos, std::memory_order_release);
  uint64_t Dropped = T.Dropped.load(std::memory_order_relaxed) + R.CapDropped;
  if (Dropped != R.WrittenDropped) {
    char *Q = beginBlock(W, Block::Dropped);
    Q = putVarint(Q, T.Index);
    Q = putVarint(Q, Dropped);
    endBlock(W, Q);
    R.WrittenDropped = Dropped;
  }
  return Pos - Start;
}

/// The most bytes any ring still held after the last pass.
uint64_t Backlog = 0;

/// One pass over every ring. EXPECTS: the drain lock is held.
uint64_t pass(WriterState &W, uint64_t Lag = 0) {
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
    Moved += drainRing(W, *R, Life == ThreadRecord::Active ? Lag : 0);
    uint64_t Left = R->State.Published.load(std::memory_order_relaxed) -
                    R->State.Consumed.load(std::memory_order_relaxed);
    Backlog = Left > Backlog ? Left : Backlog;
    if (Life == ThreadRecord::Retired &&
        R->State.Consumed.load(std::memory_order_relaxed) ==
            R->State.Published.load(std::memory_order_acquire)) {
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
  WriterState &W = state();
  unsigned IdlePasses = 0;
  uint64_t LastWrite = clockNs(CLOCK_MONOTONIC);
  uint64_t LastPass = LastWrite;
  for (;;) {
    uint64_t Moved = 0;
    uint64_t Left = 0;
    if (acquireDrain(true)) {
      Moved = pass(W, DrainLag);
      Left = Backlog;
      uint64_t Now = clockNs(CLOCK_MONOTONIC);
      // A second anchor soon after the first gives short runs a clock
      // rate; later ones keep a torn file convertible.
      uint64_t Real = clockNs(CLOCK_REALTIME);
      if (W.Fd >= 0 && ((W.Anchors < 2 && Real - W.LastAnchorNs > 10000000) ||
                        Real - W.LastAnchorNs > 1000000000))
        writeClock(W);
      if (W.OutLen > OutCapacity / 4 ||
          (W.OutLen > 0 && Now - LastWrite > 100000000)) {
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
    auto Wait = std::chrono::microseconds(IdlePasses < 8 ? 1000 : 10000);
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
      Wait = std::chrono::microseconds(Us < 200     ? 200
                                       : Us > 20000 ? 20000
                                                    : Us);
    }
    C.Wake.wait_for(G, Wait, [&] { return C.Stop || WakeRequested.load(); });
    if (C.Stop)
      break;
  }
  return nullptr;
}

} // namespace

void prepareWriter() noexcept {
  // Construct the writer's statics now, in ensureInit: a fork() while
  // another thread runs a function-local static's initializer would leave
  // the child waiting on that guard for ever.
  state();
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
  if (shutDown() || !acquireDrain(true))
    return 0;
  WriterState &W = state();
  uint64_t Moved = pass(W);
  flushOut(W);
  releaseDrain();
  return Moved;
}

void finishTrace(const char *How) noexcept {
  // Bounded wait: a pass takes milliseconds; a thread stuck holding the
  // lock (it crashed inside a pass) must not hang the exit.
  bool Locked = false;
  pid_t Me = currentTid();
  for (unsigned Spin = 0; Spin < 20000; ++Spin) {
    pid_t Free = 0;
    if (DrainOwner.compare_exchange_strong(Free, Me,
                                           std::memory_order_acquire)) {
      Locked = true;
      break;
    }
    if (Free == Me)
      break; // we crashed inside a pass: its state is not to be trusted
    timespec Ts{0, 50000};
    nanosleep(&Ts, nullptr);
  }
  WriterState &W = state();
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
    DroppedTotal += T.Dropped.load(std::memory_order_relaxed) + R->CapDropped;
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

void lockDrainForFork() noexcept { HeldForFork = acquireDrain(true); }
void unlockDrainAfterFork() noexcept {
  if (HeldForFork)
    releaseDrain();
  HeldForFork = false;
}

void resetWriterInChild() noexcept {
  WriterState &W = state();
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

void openTraceNow() noexcept {
  if (FileReady.load(std::memory_order_acquire) || shutDown() ||
      !acquireDrain(true))
    return;
  openFile(state());
  releaseDrain();
}

const char *tracePath() noexcept { return state().Path; }

} // namespace sonde::rt::detail

namespace sonde {

void flush() noexcept { rt::detail::drainOnce(); }

const char *traceFile() noexcept { return rt::detail::tracePath(); }

} // namespace sonde
