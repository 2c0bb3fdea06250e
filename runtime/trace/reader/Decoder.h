//===- Decoder.h - The state of reading one trace file -------- -*- C++ -*-===//
//
// The reader's inside. A file is read in three walks over its blocks, none
// of which keeps the records (docs/trace-format.md, "Reading in bounded
// memory"):
//
//  1. the *outline* (Blocks.cpp): every block but the records: the process,
//     clock anchors, strings, sites, threads, drops, regions still open at
//     the end, the end record; where each thing was defined, and where each
//     thread's Events blocks are;
//  2. the *check* (Records.cpp, without values): every record once,
//     validated as the file declared it, for what must be known before the
//     first event is given: the problems of the file, its earliest and
//     latest times, the context in force at the end;
//  3. the *events* (Records.cpp, with values, and Order.cpp): the records
//     again, each thread's in program order, the threads merged by time.
//
// A reader that can learn the file's problems after its last event (sonde
// check and infer) has walks 2 and 3 made one (OneWalk): the events walk
// validates each record as the check would, before giving it.
//
// Private to the trace library; sonde::trace::TraceStream drives it.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_DECODER_H
#define SONDE_TRACE_READER_DECODER_H

#include "sonde/trace.h"

#include "TraceFormat.h"
#include "ValueSkeleton.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace sonde::trace::detail {

using format::Block;
using format::Cursor;
using format::Ev;
using format::Val;

struct EncodedKeys;
class Order;

/// A string of the file: a varint length, then its bytes.
std::string readStr(Cursor &C);

/// `Len` bytes of the file `Fd` at `Off`, read by pread into `Buf` (grown
/// as needed), or null when the file has fewer or cannot be read.
const uint8_t *readAt(int Fd, std::vector<uint8_t> &Buf, uint64_t Off,
                      size_t Len);

/// The least bytes of Events blocks a file has for its check to be split
/// across two cores (CheckSplit.cpp); the tests lower it.
extern uint64_t ParallelCheckMinBytes;

/// The empty arg set, which most events point to.
const Args &noArgs();

/// Per-thread decoding state: the stack of context pushes (args in force).
struct CtxEntry {
  uint32_t Site = 0;
  bool Inherit = false;
  /// Values names no arg twice / holds an ItemsArg, noted at the push: a
  /// record in whose context this push is the only one with args shares
  /// Values as its arg set when it gives them as they are (distinct, and
  /// without the item count unless its own), instead of a copy.
  bool Distinct = true;
  bool HasItems = false;
  /// The push's args in file order; null when it has none.
  std::shared_ptr<const Args> Values;
  /// The arg sets of the records under this push while it is the
  /// innermost push that gives args, made by the first record that asks
  /// and shared by the rest, as valid as long as the pushes below it stay:
  /// Inside for records of other sites (a step's records get the args of
  /// the step and of the epoch around it, not the step's item count), Own
  /// for this push's own site. `InsideMade` / `OwnMade`: made (a set may
  /// be null: no args).
  std::shared_ptr<const Args> Inside, OwnSet;
  bool InsideMade = false, OwnMade = false;
  void forgetSets() {
    Inside = OwnSet = nullptr;
    InsideMade = OwnMade = false;
  }
};
struct ThreadDecode {
  std::vector<CtxEntry> Ctx;
  /// In the later part of a split check (CheckSplit.cpp): the sites of the
  /// pops that found no push of this part, in order; they pop what the
  /// earlier part left.
  std::vector<uint32_t> Missed;
  /// The arg set last computed, valid while the stack is unchanged.
  std::shared_ptr<const Args> Cached;
  uint32_t CachedOwn = ~0u;
  bool Valid = false;
};

/// A site's last watch in the Events block being read, when its value was
/// an integer: what a WatchDelta record (format 1.6) adds its delta to.
/// Valid while `Block` is the decoder's count of the block being read.
struct PrevInt {
  uint64_t Block = 0;
  uint64_t Bits = 0;
  bool Signed = false;
};

/// Where an Events block is, and whose.
struct EventsBlock {
  uint64_t Offset = 0; ///< of its body
  uint32_t Len = 0;    ///< the bytes present (less than declared if torn)
  uint32_t Thread = 0;
};

/// A region an Unfinished block names: open when the process ended.
struct OpenAtEnd {
  uint32_t Thread = 0, Site = 0, Level = 0;
  uint64_t StartTsc = 0;
  std::shared_ptr<const Args> A; ///< set after the check
};

/// An event on its way out: the event, the level that orders it in its
/// thread (Decoder::NoLevel when the file does not say), and its place in
/// the file, which breaks ties of time between threads.
struct Pending {
  Event E;
  uint32_t OrderLevel = 0;
  uint64_t Seq = 0;
};

/// What receives the records of the events walk, in file order.
class RecordSink {
public:
  virtual ~RecordSink() = default;
  /// A place for the next record: filled by the caller, then committed.
  virtual Pending &fresh() = 0;
  virtual void commit() = 0;
};

class Decoder {
public:
  explicit Decoder(Trace &T) : T(T) {}

  static constexpr uint32_t NoLevel = ~0u;

  /// Walk 1: one block of the outline, `C` over its body (cut short when
  /// the file is torn inside it); `At` is the offset of the block header.
  void block(Block B, Cursor &C, uint64_t At);
  /// Walk 2 (`Out` null) and walk 3: the records of one Events block.
  void events(Cursor &C, const EventsBlock &EB, RecordSink *Out);

  /// One Events block walked a few records at a time (walk 3), so that its
  /// events are used while they are still in the cache: a block of small
  /// records holds tens of thousands, far more than the cache holds once
  /// decoded. No other block may be walked until this one is done.
  struct BlockWalk {
    Cursor C{nullptr, nullptr};
    const uint8_t *Begin = nullptr, *Stop = nullptr;
    EventsBlock EB;
    uint64_t Tsc = 0;
    uint32_t Thread = 0;
    uint32_t PointLevel = 0;
    bool Deltas = false;
    bool Done = true;
  };
  /// Starts `W` on the block `EB`, `C` over its body.
  void beginEvents(Cursor &C, const EventsBlock &EB, RecordSink *Out,
                   BlockWalk &W);
  /// Decodes up to `Budget` more records of `W`'s block into `Out` (the
  /// check when null); W.Done once the block is.
  void moreEvents(BlockWalk &W, RecordSink *Out, size_t Budget);
  void moreEvents(BlockWalk &W, Order *Out, size_t Budget);
  /// After walk 1: the clock line through the first and last anchors.
  void clockLine();
  /// After walk 2: what the file's problems and times are, the args of the
  /// regions open at the end. Resets the per-thread state for walk 3.
  void finishCheck();

  /// The check over blocks [From, To) of `Blocks`, whose bytes `Bytes`
  /// gives (null when they cannot be read).
  template <class BytesOf>
  void checkBlocks(size_t From, size_t To, BytesOf Bytes) {
    for (size_t I = From; I < To; ++I) {
      const EventsBlock &EB = Blocks[I];
      const uint8_t *P = Bytes(EB.Offset, EB.Len);
      Cursor C(P, P ? P + EB.Len : P);
      events(C, EB, nullptr);
    }
  }
  /// A decoder for the check of blocks after this one's (CheckSplit.cpp):
  /// the outline copied, nothing of the check yet.
  std::unique_ptr<Decoder> laterPart() const;
  /// Takes in what the check of `Later`, a laterPart() that walked the
  /// blocks after this one's, found: as if this decoder had walked them
  /// too. False when it cannot (too many pops of earlier pushes to keep):
  /// this decoder must walk them itself.
  bool absorb(Decoder &Later);
  /// Pops the innermost push of `Site`; false when there is none.
  static bool popContext(ThreadDecode &TD, uint32_t Site);
  /// Whether this decoder checks a later part of the file: its pops may
  /// pop pushes of the part before (CheckSplit.cpp).
  bool Later = false;
  /// Walks 2 and 3 as one: the events walk checks each record as walk 2
  /// would, stops its block where walk 2 would, and counts what walk 2
  /// counts (the times one by one: it converts each anyway), so that once
  /// its last block is walked, finishCheck() knows what it knows after
  /// walk 2. No value's extent is kept: the walk that checks it gives it.
  bool OneWalk = false;
  /// After the outline: the one walk instead of walk 2.
  void startOneWalk();
  /// Forgets what the one walk found, not what the outline did: the walk
  /// starts over (after the outline, nothing to forget).
  void restartCheck();
  /// Forgets the counts, times, extents and per-thread state a walk of the
  /// records gathers (not where it found the file corrupt).
  void forgetRecords();
  struct {
    uint64_t CorruptAt = ~uint64_t(0);
    std::string Corrupt;
    size_t MoreCorrupt = 0;
  } AtOutline;

  bool decodeValue(Cursor &C, Value &V, unsigned Depth = 0);
  /// Keep structured values encoded (TraceStream::setEncodedValues;
  /// ValueDecode.h), with the file's strings as a table made once.
  bool EncodedValues = false;
  /// Args only for records of sites that name their own
  /// (TraceStream::setArgsOnlyWhereNamed).
  bool ArgsOnlyWhereNamed = false;
  std::shared_ptr<EncodedKeys> EncKeys;
  /// Set when the bytes the decoder reads stay alive and in place
  /// (TraceStream::setEncodedValues with an owner): values kept encoded
  /// then point into them through InPlace, made with EncKeys, instead of
  /// each holding a copy.
  std::shared_ptr<const void> InPlaceOwner;
  std::shared_ptr<const Value::Composite> InPlace;
  /// With InPlaceOwner: each structured value the check walked without a
  /// fault (where it starts, its size), in file order, so that the events
  /// walk takes its size from here instead of walking it a second time.
  /// Memory: 16 bytes a structured value of a file held whole anyway.
  struct Extent {
    const uint8_t *At;
    size_t Size;
  };
  std::vector<Extent> Extents;
  /// In the events walk: the first extent not yet passed in the block.
  size_t NextExtent = 0;
  bool WalkingEvents = false;
  std::shared_ptr<EncodedKeys> encodedKeys() const;

  /// Ticks to ns since the Unix epoch, saturated (no bounds).
  int64_t toNs(uint64_t Tsc) const {
    // Inline: it runs once or twice per record.
    int64_t Off = roundHalfAway(
        static_cast<double>(static_cast<int64_t>(Tsc - BaseTsc)) * Rate);
    // A corrupt timestamp saturates instead of overflowing (found by
    // fuzz-trace).
    int64_t Ns;
    if (__builtin_add_overflow(BaseNs, Off, &Ns))
      Ns = Off > 0 ? INT64_MAX : INT64_MIN;
    return Ns;
  }
  /// std::llround (half away from zero) without the library call, which
  /// took a tenth of reading a trace: exact below 2^52, where x - trunc(x)
  /// is.
  static int64_t roundHalfAway(double X) {
    // Most times: in [1, 2^52) half an ulp divides 0.5, so X + 0.5 either
    // is exact or stays below the next integer when X's fraction is under
    // a half (at most 1 - ulp(X), which is representable): its truncation
    // is the rounding, in one add. Below 1 it is not (0.5 - 2^-54 + 0.5
    // rounds to 1). RoundHalfAwayTest holds it to std::llround.
    if (X >= 1.0 && X < 4503599627370496.0)
      return static_cast<int64_t>(X + 0.5);
    if (!(std::fabs(X) < 4503599627370496.0)) // 2^52, and NaN
      return static_cast<int64_t>(std::llround(X));
    auto T = static_cast<int64_t>(X);
    double Frac = X - static_cast<double>(T);
    return T + (Frac >= 0.5) - (Frac <= -0.5);
  }
  /// `Ns` held in [0, MaxTimeNs].
  static int64_t bound(int64_t Ns) {
    return Ns < 0 ? 0 : Ns > MaxTimeNs ? MaxTimeNs : Ns;
  }
  /// The tick the trace ends at: its last record, anchor or end.
  uint64_t lastTsc() const;

  Trace &T;
  /// Whether Level records give instants and watches their nesting level
  /// (format 1.2); before, a record on the tick a region starts on is
  /// placed inside it.
  bool PointLevels = true;
  /// The first corruption in the file (by offset) and how many more: the
  /// reader skips what it cannot trust and says so once (Trace::Problem).
  uint64_t CorruptAt = ~uint64_t(0);
  std::string Corrupt;
  size_t MoreCorrupt = 0;
  std::string TimeProblem; ///< times out of range, set by finishCheck()

  /// Strings, sites and threads with the offset of their first
  /// definition: a record may use only what came before it in the file.
  std::unordered_map<uint32_t, std::pair<std::string, uint64_t>> Strings;
  std::vector<uint64_t> SiteAt;
  std::unordered_map<uint32_t, uint64_t> ThreadAt;

  std::vector<EventsBlock> Blocks;
  /// Per Events block (by offset) where the check stopped trusting it.
  std::unordered_map<uint64_t, uint64_t> StopAt;
  std::vector<OpenAtEnd> Open;
  std::map<uint32_t, ThreadDecode> Threads;
  std::map<uint32_t, uint64_t> Dropped;
  uint64_t MaxTsc = 0;
  uint64_t EndTsc = 0;
  /// Per site id, the integer a WatchDelta record of the block being read
  /// starts from; BlockCount numbers the blocks read, so that a new block
  /// starts with none without clearing the table. Sized by the sites of
  /// the outline: no more memory than the outline's.
  std::vector<PrevInt> PrevInts;
  uint64_t BlockCount = 0;
  uint64_t Records = 0; ///< events the check counted
  uint64_t Seq = 0;     ///< the events walk's count, each event's place
  /// The earliest event start the check saw (ns), if it saw one.
  int64_t MinStartNs = 0;
  bool AnyEvent = false;
  /// Times the check found outside [0, MaxTimeNs].
  size_t OutOfRange = 0;
  /// Whether the check converts every time (a clock line that runs
  /// backwards or leaves the range), or only keeps the extreme ticks, which
  /// say the same on a sane line.
  bool TimesOneByOne = false;
  uint64_t MinTick = ~uint64_t(0), MaxTick = 0;
  bool AnyTick = false;
  /// After a check that kept the extremes: whether they say it all (else
  /// the check runs again, one by one).
  bool extremesSuffice();

  uint32_t MaxSite = 1u << 24;

private:
  /// `Whole`: where to put the end of a structured value walked without a
  /// fault when it is kept in place, instead of noting it in Extents.
  bool skipValue(Cursor &C, uint64_t BlockAt, unsigned Depth = 0,
                 const uint8_t **Whole = nullptr);
  /// The source of values kept in place (InPlace), made on first use; null
  /// when there is no owner or no key table.
  const Value::Composite *inPlace() {
    return InPlace ? InPlace.get() : makeInPlace();
  }
  const Value::Composite *makeInPlace();
  /// Whether the value at [At, Bound) is one skipValue() walks whole and
  /// the events walk keeps in place: an object or array (at the top), its
  /// bytes kept alive by an owner, its keys read by table.
  bool inPlaceShape(const uint8_t *At, const uint8_t *Bound) const;
  /// Whether a record of `Site` is given its args
  /// (TraceStream::setArgsOnlyWhereNamed).
  bool argsAskedOf(uint32_t Site) const {
    return !ArgsOnlyWhereNamed || Site >= T.Sites.size() ||
           !T.Sites[Site].ArgNames.empty();
  }
  /// The one walk's value: checked as skipValue() checks it, then decoded
  /// (a structured one kept encoded in place without a second walk). A
  /// structured value of `Site` with the structure of one before it is
  /// checked by that structure, whose number it is given (ValueSkeleton.h).
  bool checkedValue(Cursor &C, Value &V, uint64_t BlockAt, uint32_t Site);
  /// The skeleton of `Site` the structured value at [At, Bound) in the block
  /// at `BlockAt` has, or null; `End` then where the value ends.
  const ValueSkeleton *bySkeleton(const uint8_t *At, const uint8_t *Bound,
                                  uint64_t BlockAt, uint32_t Site,
                                  const uint8_t *&End);
  /// Numbers the structure of the value [At, End), which skipValue()
  /// walked whole, for the next values of `Site`: its skeleton (its number
  /// and whether exact), or null.
  const ValueSkeleton *learnSkeleton(const uint8_t *At, const uint8_t *End,
                                     uint32_t Site);
  std::vector<SiteSkeletons> Skeletons; ///< by site
  uint16_t LastSkeleton = 0;            ///< the last number given
  /// Notes a record or block the file cannot have; its reader skips the
  /// rest of the block (its framing may be off from there).
  void corrupt(uint64_t At, const std::string &What);
  /// The site's description in messages.
  std::string siteName(uint64_t Id) const {
    return "site " + std::to_string(Id) +
           (Id < T.Sites.size() && T.Sites[Id].Id == Id
                ? " ('" + T.Sites[Id].Name + "')"
                : std::string());
  }
  /// Null when `Site` (a number as the file gives it) was defined before
  /// offset `Before` and may carry a record of type `Type`, else why not.
  const char *checkSite(uint64_t Site, Ev Type, uint64_t Before) const;
  /// What checkSite() says, as one test: whether `Site` was defined before
  /// `Before` and may carry a record of type `Type` (SiteTypes).
  bool siteMay(uint64_t Site, Ev Type, uint64_t Before) const {
    return Site < SiteTypes.size() &&
           (SiteTypes[Site] >> static_cast<unsigned>(Type) & 1) &&
           SiteAt[Site] < Before;
  }
  /// Per site id, a bit per record type (Ev) checkSite() allows, set when
  /// its Site block is read: the check asks once per record.
  std::vector<uint16_t> SiteTypes;
  void noteSiteTypes(uint32_t Id);
  /// The walk of moreEvents(): the check when `Sink` is CheckOnly; the
  /// events walk that checks too when `Checks` (OneWalk).
  struct CheckOnly;
  template <class Sink, bool Checks = std::is_same_v<Sink, CheckOnly>>
  void walkBlock(BlockWalk &W, Sink *Out, size_t Budget);
  /// Whether a Thread block before offset `Before` announced `Index` (a
  /// number as the file gives it).
  bool knownThread(uint64_t Index, uint64_t Before) const {
    if (Index > UINT32_MAX)
      return false;
    auto It = ThreadAt.find(static_cast<uint32_t>(Index));
    return It != ThreadAt.end() && It->second < Before;
  }
  void countTime(uint64_t StartTsc, uint64_t EndTsc);
  /// Notes what a plain Watch record of `Site` whose value starts at `C`
  /// leaves for the WatchDelta records after it (nothing read from `C`).
  void notePrevInt(const Cursor &C, uint32_t Site);
  void noteMissedPop(ThreadDecode &TD, uint32_t Site);
  /// Missed pops kept by a later part, at most MaxMissed (then absorb()
  /// refuses: a file of pops without pushes must not grow memory).
  size_t MissedPops = 0;
  bool TooManyMissed = false;
  static constexpr size_t MaxMissed = 4096;

public:
  std::shared_ptr<const Args> argsFor(ThreadDecode &TD, uint32_t OwnSite);

private:
  /// Site ids are dense (given out at first hit, each written in a Site
  /// block), so an id far beyond the file's size is corruption: it must not
  /// size the table (a 10-byte file once asked for 400 GB).
  bool ensureSite(uint32_t Id) {
    if (Id > MaxSite)
      return false;
    if (T.Sites.size() <= Id) {
      T.Sites.resize(Id + 1);
      SiteAt.resize(Id + 1, ~uint64_t(0));
      SiteTypes.resize(Id + 1, 0);
    }
    return true;
  }

  const uint8_t *Body = nullptr; ///< of the block being read
  double Rate = 1.0;
  uint64_t BaseTsc = 0;
  int64_t BaseNs = 0;
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_DECODER_H
