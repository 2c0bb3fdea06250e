//===- Stream.cpp - A trace file read as a stream -------------------------===//
//
// TraceStream (sonde/trace.h): the file's framing (header, blocks, a tear)
// walked once for the outline and the check, and again, block by block,
// for the events (Decoder.h names the walks). Bytes come from the file by
// pread, one block at a time, or from memory (the fuzzer): nothing holds
// the whole file.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"
#include "Order.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>

namespace sonde::trace {

using namespace detail;

namespace {

/// The events walk on a thread of its own, a few batches ahead of the
/// command that uses the events: decoding and ordering one file's records
/// and formatting or counting them take turns on one core otherwise. The
/// events are moved out of the walk's nodes into batches, in order; the
/// consumer sees the same events in the same order.
struct Prefetch {
  static constexpr size_t BatchSize = 512;
  static constexpr size_t MaxReady = 4; ///< ahead: what stays in cache

  std::thread Worker;
  std::mutex Lock;
  std::condition_variable Changed;
  /// An event, and the late events the walk had given when it gave it
  /// (TraceStream::late(), as the caller would see it without a thread).
  struct Given {
    Event E;
    uint64_t Late;
  };
  std::deque<std::vector<Given>> Ready;
  std::vector<std::vector<Given>> Spare;
  bool Done = false; ///< the worker gave its last batch
  bool Stop = false; ///< the consumer wants no more
  std::vector<Given> Current;
  size_t Pos = 0;
  /// The consumer's side: late() at the event it was given last, and that
  /// of the walks before this one.
  uint64_t LateGiven = 0, LateBefore = 0;
};

} // namespace

struct TraceStream::Impl {
  Trace T;
  Decoder D{T};
  // The bytes: a file read block by block, or memory.
  int Fd = -1;
  const uint8_t *Mem = nullptr;
  uint64_t Size = 0;
  std::vector<uint8_t> Buf;
  // The events walk.
  std::unique_ptr<Order> Ord;
  std::vector<Pending> Open; ///< the regions open at the end, as events
  std::unordered_map<uint32_t, size_t> BlocksOf;
  size_t NextBlock = 0;
  /// The block under way: walked BlockBudget records at a time.
  detail::Decoder::BlockWalk Walking;
  static constexpr size_t BlockBudget = 256;
  size_t LookAhead = size_t(1) << 20;
  bool Events = true;
  /// The records checked by the events walk (openBytes' CheckAsRead):
  /// what the check finds is said once its last block is walked (settle()).
  bool AsRead = false;
  bool Started = false;
  WalkThread Walker = WalkThread::Auto;

  ~Impl() {
    if (Ahead.joinable())
      Ahead.join();
    stopPrefetch();
    if (Fd >= 0)
      ::close(Fd);
  }

  /// The next event of the events walk on this thread, or null at the end
  /// (after which the walk has given back what it held).
  Event *walk();
  /// Decodes a few more records into the order; false when every block
  /// was decoded.
  bool decodeMore();
  /// walkAhead()'s part: decodes as much as the order may hold before any
  /// event is asked for.
  void decodeAhead();
  std::unique_ptr<Prefetch> Pf;
  /// walkAhead(): the records decoded ahead on a thread of its own (all of
  /// a file whose records sit inside one region); next() joins it.
  std::thread Ahead;
  std::exception_ptr AheadFailed;
  void startPrefetch();
  Event *nextPrefetched();
  void stopPrefetch();

  /// `Len` bytes at `Off` (within the file), or null when they cannot be
  /// read.
  const uint8_t *bytes(uint64_t Off, size_t Len) {
    return Mem ? Mem + Off : readAt(Fd, Buf, Off, Len);
  }

  bool read(const std::string &Path, std::string &Error);
  void outline();
  void check();
  /// After the check: the file's problems, event count, earliest time and
  /// the regions open at the end, into T and Open.
  void settle();
  /// The first block of the check's later part, or the block count when
  /// the file is checked in one walk.
  size_t checkSplit() const;
  void startEvents();
  /// After the last event: what the walk held is given back (a merge of
  /// many files holds one file's at a time).
  void finishEvents() {
    Late = std::max(Late, Ord->Late); // the last of a command's passes
    Ord.reset();
    Buf.clear();
    Buf.shrink_to_fit();
    D.Threads.clear();
    Started = false;
  }
  uint64_t Late = 0;
  uint64_t Unread = 0; ///< Events blocks the events walk could not read
};

bool TraceStream::Impl::read(const std::string &Path, std::string &Error) {
  T.Path = Path;
  const uint8_t *H = Size >= format::FileHeaderSize
                         ? bytes(0, format::FileHeaderSize)
                         : nullptr;
  if (!H || std::memcmp(H, format::Magic, 8) != 0) {
    Error = Path + ": not a sonde trace (bad magic)";
    return false;
  }
  T.VersionMajor = static_cast<uint16_t>(H[8] | (H[9] << 8));
  T.VersionMinor = static_cast<uint16_t>(H[10] | (H[11] << 8));
  if (T.VersionMajor != format::Major) {
    Error = Path + ": trace format " + std::to_string(T.VersionMajor) + "." +
            std::to_string(T.VersionMinor) +
            " is not readable by this sonde (format " +
            std::to_string(format::Major) + ".x)";
    return false;
  }
  D.PointLevels = T.VersionMinor >= 2;
  D.MaxSite = static_cast<uint32_t>(std::min<uint64_t>(1u << 24, 4096 + Size));
  outline();
  D.clockLine();
  for (const EventsBlock &EB : D.Blocks)
    ++BlocksOf[EB.Thread];
  // The regions open at the end take the args in force at the end, which
  // only a walk to the end knows before their events go out: such a file
  // is checked first.
  if (Events && AsRead && D.Open.empty()) {
    D.startOneWalk();
  } else {
    if (Events)
      check();
    settle();
  }
  Buf.clear(); // the events walk takes one again when it starts
  Buf.shrink_to_fit();
  return true;
}

void TraceStream::Impl::settle() {
  D.finishCheck();
  // Never silent: what was skipped or corrected, once.
  auto Say = [this](const std::string &What) {
    T.Problem = T.Problem.empty() ? What : T.Problem + "; " + What;
  };
  if (!D.Corrupt.empty())
    Say("corrupt: " + D.Corrupt +
        (D.MoreCorrupt ? " (and " + std::to_string(D.MoreCorrupt) + " more)"
                       : std::string()) +
        "; the rest of each such block was skipped");
  if (!D.TimeProblem.empty())
    Say(D.TimeProblem);
  T.EventCount = D.Records;
  T.EarliestNs = D.AnyEvent ? D.MinStartNs : 0;
  // The regions open at the end, as the events they are.
  uint64_t Last = D.lastTsc();
  uint64_t Seq = uint64_t(1) << 62; // after every record
  for (const OpenAtEnd &O : D.Open) {
    Pending P;
    Event &E = P.E;
    E.Kind = EventKind::Region;
    E.Unfinished = true;
    E.Site = O.Site;
    E.Thread = O.Thread;
    E.Level = O.Level;
    E.Ts = Decoder::bound(D.toNs(O.StartTsc));
    E.Dur = std::max<int64_t>(
        0, Decoder::bound(D.toNs(std::max(Last, O.StartTsc))) - E.Ts);
    E.A = O.A ? O.A.get() : &noArgs();
    E.Keep = O.A;
    P.OrderLevel = O.Level;
    P.Seq = Seq++;
    Open.push_back(std::move(P));
  }
}

void TraceStream::Impl::outline() {
  uint64_t Pos = format::FileHeaderSize;
  while (Pos < Size) {
    if (Size - Pos < format::BlockHeaderSize) {
      T.Complete = false;
      T.StoppedAt = Pos;
      T.Problem = "the file ends inside a block header";
      break;
    }
    const uint8_t *H = bytes(Pos, format::BlockHeaderSize);
    if (!H) {
      T.Complete = false;
      T.StoppedAt = Pos;
      T.Problem = std::string("cannot read on: ") + std::strerror(errno);
      break;
    }
    auto Type = static_cast<Block>(H[0]);
    uint32_t Len = 0;
    for (int I = 0; I < 4; ++I)
      Len |= static_cast<uint32_t>(H[1 + I]) << (8 * I);
    uint64_t Body = Pos + format::BlockHeaderSize;
    if (Type < Block::Process || Type > Block::End) {
      T.Complete = false;
      T.StoppedAt = Pos;
      T.Problem =
          "unknown block type " + std::to_string(static_cast<int>(Type));
      break;
    }
    bool Torn = Body + Len > Size;
    uint64_t Have = Torn ? Size - Body : Len;
    if (Type == Block::Events) {
      // Only its thread now: the later walks decode it.
      const uint8_t *P =
          bytes(Body, static_cast<size_t>(std::min<uint64_t>(Have, 10)));
      Cursor C(P, P ? P + std::min<uint64_t>(Have, 10) : P);
      uint64_t Thread = P ? C.varint() : ~uint64_t(0);
      EventsBlock EB;
      EB.Offset = Body;
      EB.Len = static_cast<uint32_t>(Have);
      EB.Thread =
          C.ok() && Thread <= UINT32_MAX ? static_cast<uint32_t>(Thread) : ~0u;
      D.Blocks.push_back(EB);
    } else {
      const uint8_t *P = bytes(Body, static_cast<size_t>(Have));
      Cursor C(P, P ? P + Have : P);
      D.block(Type, C, Pos);
    }
    if (Torn) {
      T.Complete = false;
      T.StoppedAt = Pos;
      T.Problem = "the file ends inside a block of " + std::to_string(Len) +
                  " bytes (" + std::to_string(Have) +
                  " present); records before the tear are kept";
      break;
    }
    Pos = Body + Len;
  }
  if (T.Complete && !T.Process.Ended)
    T.Problem = "no end record: the process was killed or is still running";
}

size_t TraceStream::Impl::checkSplit() const {
  size_t N = D.Blocks.size();
  uint64_t Total = 0;
  for (const EventsBlock &EB : D.Blocks)
    Total += EB.Len;
  if (N < 2 || Total < ParallelCheckMinBytes ||
      std::thread::hardware_concurrency() < 2)
    return N;
  uint64_t Sum = 0;
  size_t Split = 0;
  while (Split + 1 < N && Sum < Total / 2)
    Sum += D.Blocks[Split++].Len;
  return std::max<size_t>(Split, 1);
}

void TraceStream::Impl::check() {
  auto Bytes = [this](uint64_t Off, size_t Len) { return bytes(Off, Len); };
  size_t N = D.Blocks.size();
  auto Walk = [&] { D.checkBlocks(0, N, Bytes); };
  // A long file: the blocks after its middle on another core
  // (CheckSplit.cpp), with their own buffer.
  size_t Split = checkSplit();
  std::unique_ptr<Decoder> Part;
  std::thread Worker;
  std::vector<uint8_t> PartBuf;
  if (Split < N) {
    Part = D.laterPart();
    try {
      Worker = std::thread([&] {
        Part->checkBlocks(Split, N, [&](uint64_t Off, size_t Len) {
          return Mem ? Mem + Off : readAt(Fd, PartBuf, Off, Len);
        });
      });
    } catch (const std::system_error &) { // no thread: one walk
      Split = N;
    }
  }
  D.checkBlocks(0, Split, Bytes);
  if (Worker.joinable()) {
    Worker.join();
    if (!D.absorb(*Part))
      D.checkBlocks(Split, N, Bytes);
  }
  Part.reset();
  if (D.extremesSuffice())
    return;
  // A corrupt clock: the check again, converting every time to count those
  // it puts out of range (what was corrupt is known already).
  D.forgetRecords(); // walked again
  D.TimesOneByOne = true;
  Walk();
}

void TraceStream::Impl::startEvents() {
  Unread = 0;
  D.Threads.clear();
  D.Seq = 0;
  if (D.OneWalk) // started over before its end, what it found is found again
    D.restartCheck();
  Ord = std::make_unique<Order>(Open, BlocksOf, LookAhead);
  NextBlock = 0;
  Walking = detail::Decoder::BlockWalk();
  Started = true;
}

namespace detail {
const uint8_t *readAt(int Fd, std::vector<uint8_t> &Buf, uint64_t Off,
                      size_t Len) {
  if (Buf.size() < Len)
    Buf.resize(Len);
  size_t Got = 0;
  while (Got < Len) {
    ssize_t N =
        ::pread(Fd, Buf.data() + Got, Len - Got, static_cast<off_t>(Off + Got));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return nullptr;
    Got += static_cast<size_t>(N);
  }
  return Buf.data();
}
} // namespace detail

TraceStream::TraceStream() : I(std::make_unique<Impl>()) {}
TraceStream::~TraceStream() = default;

bool TraceStream::open(const std::string &Path, std::string &Error,
                       bool Events) {
  I = std::make_unique<Impl>();
  I->Events = Events;
  I->Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat St;
  if (I->Fd < 0 || fstat(I->Fd, &St) != 0) {
    Error = Path + ": cannot open";
    return false;
  }
  I->Size = static_cast<uint64_t>(St.st_size);
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(I->Fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return I->read(Path, Error);
}

bool TraceStream::openBytes(const uint8_t *Data, size_t Size,
                            const std::string &Path, std::string &Error,
                            bool Events, std::shared_ptr<const void> Owner,
                            bool CheckAsRead) {
  I = std::make_unique<Impl>();
  I->Events = Events;
  I->AsRead = CheckAsRead;
  I->Mem = Data;
  I->Size = Size;
  I->D.InPlaceOwner = std::move(Owner);
  return I->read(Path, Error);
}

Trace &TraceStream::trace() { return I->T; }

Event *TraceStream::next() {
  Impl &S = *I;
  if (!S.Events)
    return nullptr;
  if (S.Pf)
    return S.nextPrefetched();
  if (S.Ahead.joinable()) {
    S.Ahead.join();
    if (S.AheadFailed)
      std::rethrow_exception(std::exchange(S.AheadFailed, nullptr));
  }
  if (!S.Started) {
    S.startEvents();
    // Auto walks on the caller's thread: with the walk a block at a time
    // and in the cache, moving events to another thread costs more than it
    // gives, on a quiet machine as on a busy one (1e8 records, 2 cores:
    // 16.5 M/s on one thread, 7.9 M/s on two, 2026-11-27).
    if (S.Walker == WalkThread::Always) {
      S.startPrefetch();
      return S.nextPrefetched();
    }
  }
  return S.walk();
}

bool TraceStream::Impl::decodeMore() {
  if (!Walking.Done) { // a few more records of the block under way
    D.moreEvents(Walking, Ord.get(), BlockBudget);
    if (Walking.Done)
      Ord->threadDone(Walking.EB.Thread);
    return true;
  }
  if (NextBlock == D.Blocks.size())
    return false;
  const EventsBlock &EB = D.Blocks[NextBlock++];
  const uint8_t *P = bytes(EB.Offset, EB.Len);
  if (!P) // the file changed after it was opened: said, not skipped
    ++Unread;
  Cursor C(P, P ? P + EB.Len : P);
  D.beginEvents(C, EB, Ord.get(), Walking);
  if (Walking.Done)
    Ord->threadDone(EB.Thread);
  return true;
}

void TraceStream::Impl::decodeAhead() {
  // Every record decoded before any is given: the order gives the same
  // events in the same order (it is the whole file's), as long as it never
  // has to give way. So a margin below the look-ahead, and a bound on the
  // memory a file that needs no holding would take this way.
  size_t Most = std::min(LookAhead / 2, size_t(1) << 18);
  while (Ord->held() + 2 * BlockBudget < Most && decodeMore()) {
  }
}

Event *TraceStream::Impl::walk() {
  for (;;) {
    if (Pending *P = Ord->next())
      return &P->E;
    if (decodeMore())
      continue;
    if (D.OneWalk) { // every record checked: said now, and not again
      settle();
      D.OneWalk = false;
    }
    if (Ord->held() != 0) {
      Ord->endOfFile();
      if (Pending *P = Ord->next())
        return &P->E;
    }
    finishEvents(); // the next call starts over
    return nullptr;
  }
}

void TraceStream::Impl::startPrefetch() {
  Pf = std::make_unique<Prefetch>();
  Prefetch &F = *Pf;
  F.LateBefore = Late; // the worker writes it when its walk ends
  F.Worker = std::thread([this, &F] {
    std::vector<Prefetch::Given> Batch;
    for (;;) {
      Event *E = walk();
      if (E)
        Batch.push_back({std::move(*E), Ord->Late});
      if (E && Batch.size() < Prefetch::BatchSize)
        continue;
      std::unique_lock<std::mutex> G(F.Lock);
      F.Changed.wait(G, [&] { return F.Stop || F.Ready.size() < F.MaxReady; });
      if (F.Stop)
        return;
      if (!Batch.empty())
        F.Ready.push_back(std::move(Batch));
      Batch.clear();
      if (!F.Spare.empty()) {
        Batch = std::move(F.Spare.back());
        F.Spare.pop_back();
      }
      if (!E) {
        F.Done = true;
        F.Changed.notify_all();
        return;
      }
      F.Changed.notify_all();
    }
  });
}

Event *TraceStream::Impl::nextPrefetched() {
  Prefetch &F = *Pf;
  if (F.Pos < F.Current.size()) {
    F.LateGiven = F.Current[F.Pos].Late;
    return &F.Current[F.Pos++].E;
  }
  std::unique_lock<std::mutex> G(F.Lock);
  if (!F.Current.empty()) {
    F.Current.clear(); // the events it held go now, on this thread
    F.Spare.push_back(std::move(F.Current));
  }
  F.Changed.wait(G, [&] { return F.Done || !F.Ready.empty(); });
  if (F.Ready.empty()) { // the end: the walk has finished on the worker
    G.unlock();
    stopPrefetch();
    return nullptr;
  }
  F.Current = std::move(F.Ready.front());
  F.Ready.pop_front();
  F.Changed.notify_all();
  G.unlock();
  F.Pos = 1;
  F.LateGiven = F.Current[0].Late;
  return &F.Current[0].E;
}

void TraceStream::Impl::stopPrefetch() {
  if (!Pf)
    return;
  {
    std::lock_guard<std::mutex> G(Pf->Lock);
    Pf->Stop = true;
  }
  Pf->Changed.notify_all();
  Pf->Worker.join();
  bool Finished = Pf->Done;
  Pf.reset();
  if (!Finished) // stopped midway: the walk starts over
    Started = false;
}

void TraceStream::rewind() {
  if (I->Ahead.joinable())
    return; // a walk ahead (walkAhead()) that gave nothing yet: at the start
  I->stopPrefetch();
  I->Started = false;
}

uint64_t TraceStream::unreadBlocks() const { return I->Unread; }

std::string TraceStream::unreadText() const {
  if (!I->Unread)
    return {};
  return std::to_string(I->Unread) +
         " blocks of records could not be read again (the file was cut or "
         "removed while sonde read it)";
}

std::string TraceStream::lateText() const {
  uint64_t N = late();
  if (!N)
    return {};
  return std::to_string(N) +
         " events were given before an earlier one: a region held, or a "
         "thread stayed silent for, more than the look-ahead of " +
         std::to_string(I->LookAhead) + " events";
}

uint64_t TraceStream::late() const {
  // While records are decoded ahead, none was given in this walk: the
  // walks before it (Late is written by finishEvents(), on this thread).
  if (I->Ahead.joinable())
    return I->Late;
  // While a walk thread runs, Late and the order are its own: what it had
  // given with the event the caller has last.
  if (I->Pf)
    return std::max(I->Pf->LateBefore, I->Pf->LateGiven);
  // The most of any pass, finished or under way (a command may walk the
  // events several times; each walk meets the same late events).
  return std::max(I->Late, I->Ord ? I->Ord->Late : uint64_t(0));
}

void TraceStream::setLookAhead(size_t Events) { I->LookAhead = Events; }

bool TraceStream::parseLookAhead(const std::string &Text, size_t &Events,
                                 std::string &Error) {
  char *End = nullptr;
  errno = 0;
  unsigned long long N = std::strtoull(Text.c_str(), &End, 10);
  if (Text.empty() || *End || errno || N < 1 || Text[0] == '-') {
    Error = "'--look-ahead' takes a number of events (1 or more), not '" +
            Text + "'";
    return false;
  }
  Events = static_cast<size_t>(N);
  return true;
}

void TraceStream::setWalkThread(WalkThread W) { I->Walker = W; }

void TraceStream::walkAhead() {
  Impl &S = *I;
  if (!S.Events || S.Pf || S.Started || S.Ahead.joinable())
    return;
  S.startEvents();
  try {
    S.Ahead = std::thread([&S] {
      try {
        S.decodeAhead();
      } catch (...) { // given to the caller by next(), as without a thread
        S.AheadFailed = std::current_exception();
      }
    });
  } catch (const std::system_error &) { // no thread: next() walks
  }
}

void TraceStream::setEncodedValues(bool On) { I->D.EncodedValues = On; }

void TraceStream::setArgsOnlyWhereNamed(bool On) {
  I->D.ArgsOnlyWhereNamed = On;
}

} // namespace sonde::trace
