//===- sonde/trace.h - Reading sonde trace files ----------------*- C++ -*-===//
//
// The decoded form of a `.sonde` file (docs/trace-format.md): the process,
// its probe sites and threads, and every event with times in nanoseconds
// since the Unix epoch. Used by the `sonde` tool and the tests; not on any
// hot path.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_H
#define SONDE_TRACE_H

#include "sonde/site.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sonde::trace {

/// A recorded value: a scalar, a string, or a structure (tensor summaries
/// and other ValueTraits specializations). Scalars are held inline; strings
/// and structures are shared, so events stay small and cheap to copy.
struct Value {
  enum class Kind : uint8_t {
    Null,
    Bool,
    Int,
    UInt,
    Float,
    String,
    Object,
    Array,
    Truncated
  };
  using Members = std::vector<std::pair<std::string, Value>>;

  Kind K = Kind::Null;

private:
  /// Encoding::ShapeExact; in the padding after K.
  bool ShapeExact = false;
  /// An in-place value's structure, as its reader numbered it
  /// (Encoding::Shape); in the padding after K.
  uint16_t Shape = 0;
  /// An Object or Array kept encoded in place (encodedIn): the size of its
  /// bytes, which `At` points to; 0 for every other value. Here, where the
  /// padding after K was, so a value stays 32 bytes.
  uint32_t InPlaceSize = 0;

public:
  union {
    bool B;
    int64_t I = 0;
    uint64_t U;
    double F;
    const uint8_t *At; ///< an in-place value's bytes (encodedIn)
  };

  bool isNumber() const {
    return K == Kind::Int || K == Kind::UInt || K == Kind::Float ||
           K == Kind::Bool;
  }
  /// The value as a double. EXPECTS: isNumber(). Inline: the summary asks
  /// it of every watch.
  double number() const {
    switch (K) {
    case Kind::Int:
      return static_cast<double>(I);
    case Kind::UInt:
      return static_cast<double>(U);
    case Kind::Float:
      return F;
    case Kind::Bool:
      return B ? 1 : 0;
    default:
      return __builtin_nan("");
    }
  }
  /// Whether a value of kind `K` holds a string or a structure (shared by
  /// copies); a value of any other kind is its kind and its 8 bytes, which
  /// the reader and the summary copy field by field.
  static bool holdsShared(Kind K) {
    return K == Kind::String || K == Kind::Object || K == Kind::Array;
  }
  /// The string of a String value, else "".
  const std::string &str() const;
  /// An Object's members / an Array's items (empty for other kinds).
  const Members &members() const;
  const std::vector<Value> &items() const;
  /// An object member, or null.
  const Value *get(std::string_view Key) const;

  static Value string(std::string S);
  static Value object(Members M);
  static Value array(std::vector<Value> Items);

  /// A file's strings by id (ids no String block defined are empty): what
  /// the object keys of an encoded value name.
  using KeyTable = std::vector<std::string>;
  /// An Object or Array a stream kept in the file's encoding
  /// (TraceStream::setEncodedValues): its bytes (one value, from its tag)
  /// and the strings its keys name. Data is null for every other value.
  struct Encoding {
    const uint8_t *Data = nullptr;
    size_t Size = 0;
    const KeyTable *Keys = nullptr;
    /// The structure of the bytes, as the reader that kept them numbered
    /// it (0: not numbered): two values of one file with the same nonzero
    /// number have the same key ids, tags and counts, and differ only in
    /// their leaves' payloads (a bool's tag included).
    uint32_t Shape = 0;
    /// Values with this number also have each string and integer of the
    /// same length: every payload is at the same offset from Data.
    bool ShapeExact = false;
  };
  Encoding encoding() const;
  /// An Object or Array (`K`) kept encoded: `Bytes`, checked by the reader,
  /// decoded on the first call of members(), items() or get(), so a reader
  /// of the bytes alone (sonde check) never builds the members.
  static Value encoded(Kind K, std::string Bytes,
                       std::shared_ptr<const KeyTable> Keys);

  /// What a value holds beyond its 8 bytes (a string, members, items, an
  /// encoding), shared by copies; defined by the reader.
  struct Composite;
  /// What the values a stream keeps encoded in place share (one per file):
  /// the strings their keys name, and `Owner`, which keeps the bytes they
  /// point into alive (a whole file read into memory). Copying such a value
  /// copies a pointer to it, and no value allocates.
  static std::shared_ptr<const Composite>
  inPlaceSource(std::shared_ptr<const KeyTable> Keys,
                std::shared_ptr<const void> Owner);
  /// An Object or Array (`K`) kept encoded where it is: `Size` bytes at
  /// `Data`, which `Source`'s owner holds, checked by the reader (as
  /// encoded(), without the copy). Decoded once, on the first call of
  /// members(), items() or get(); each call takes the source's lock: for
  /// readers of the bytes (sonde check), not of the members.
  static Value encodedIn(Kind K, const uint8_t *Data, uint32_t Size,
                         std::shared_ptr<const Composite> Source,
                         uint16_t Shape = 0, bool ShapeExact = false);

private:
  /// The decoded form of an in-place value, made once per value.
  const Composite &decodedInPlace() const;
  std::shared_ptr<const Composite> C;
};

using Args = std::vector<std::pair<std::string, Value>>;

/// What a site records: the protocol's own enum (sonde/site.h), the
/// numbers a Site block holds.
using sonde::SiteKind;

struct SiteInfo {
  uint32_t Id = 0;
  SiteKind Kind = SiteKind::Region;
  uint8_t Flags = 0; ///< SiteFlags, and the Summary (summaryOfFlags)
  uint32_t Line = 0;
  uint64_t StableId = 0;
  std::string Category, Name, File, Function, Type;
  std::vector<std::string> ArgNames;

  /// The part of the category before its first dot: `compute`.
  std::string topCategory() const;
};

struct ThreadInfo {
  uint32_t Index = 0;
  uint64_t Tid = 0;
  std::string Name;
};

enum class EventKind : uint8_t { Region, Instant, Watch };

struct Event {
  EventKind Kind = EventKind::Region;
  /// Instants of a `mode: instant` region: its start or its stop.
  enum class Phase : uint8_t { None, Start, Stop } Ph = Phase::None;
  bool Unfinished = false; ///< open when the process ended
  /// An alarm (format 1.5): the watch site's `check: finite` failed. Kind
  /// is Instant and V the NaN or infinite value; the watch's own record of
  /// that value comes just before it.
  bool Alarm = false;
  uint32_t Site = 0;
  uint32_t Thread = 0; ///< ThreadInfo::Index
  uint32_t Level = 0;
  int64_t Ts = 0;    ///< ns since the Unix epoch (start, for regions)
  int64_t Dur = 0;   ///< ns, regions only
  int64_t Iter = -1; ///< loop iteration, or -1
  Value V;           ///< watches
  /// The site's own args and the context in force; never null.
  const Args *A = nullptr;
  /// Keeps `A` alive when the reader made it (null for no args).
  std::shared_ptr<const Args> Keep;
};

struct ProcessInfo {
  uint64_t Pid = 0, PPid = 0;
  int64_t Rank = 0;
  std::string Host, Program;
  /// The kernel's boot id (format 1.1): processes with the same one share
  /// CLOCK_MONOTONIC, which `sonde merge` aligns them with. Empty in 1.0.
  std::string BootId;
  /// Where the process stood in a distributed job (format 1.3): its local
  /// rank and world size (-1: not given, and in 1.2 files) and the
  /// launcher whose variables gave them: env (RANK...), openmpi, pmi,
  /// slurm, or empty when none did (Rank is then 0).
  int64_t LocalRank = -1, WorldSize = -1;
  std::string Launcher;
  int64_t StartNs = 0;
  bool Ended = false; ///< an End block was read
  std::string How;    ///< exit, quick_exit, signal:SIGTERM, crash:SIGSEGV...
  int64_t EndNs = 0;
  uint64_t Dropped = 0;
};

/// A Clock block: one instant read on three clocks.
struct ClockAnchor {
  uint64_t Tsc = 0;
  int64_t RealNs = 0; ///< CLOCK_REALTIME
  int64_t MonoNs = 0; ///< CLOCK_MONOTONIC
};

/// The result of a clock exchange with another rank (format 1.4, carried
/// by clock anchors; the last one holds): that rank's CLOCK_MONOTONIC minus
/// this process's at one instant, within +-UncertaintyNs.
struct ClockSync {
  bool Known = false;
  int64_t OffsetNs = 0;
  int64_t UncertaintyNs = 0;
  int64_t RefRank = 0;
  std::string RefBoot; ///< the reference rank's boot id
};

/// The latest time a trace holds (2116): every time the reader gives
/// (events, their ends, the process's start and end, clock anchors) is in
/// [0, MaxTimeNs], so sums and differences of two never overflow. A file
/// that says otherwise is corrupt, and its reader says so.
constexpr int64_t MaxTimeNs = (int64_t(1) << 62) - 1;

class TraceStream;

struct Trace {
  std::string Path;
  uint16_t VersionMajor = 0, VersionMinor = 0;
  ProcessInfo Process;
  std::vector<SiteInfo> Sites; ///< by id; Sites[0] is unused
  std::vector<ThreadInfo> Threads;
  /// In time order, when read whole (readTrace) or built in memory; a
  /// trace opened as a stream (openTrace) leaves it empty: read its events
  /// with events().
  std::vector<Event> Events;
  /// Arg sets that events built in memory point to (Events[i].A).
  std::vector<std::unique_ptr<Args>> ArgSets;
  /// Where a streamed trace's events come from (openTrace), else null.
  std::shared_ptr<TraceStream> Stream;
  /// A streamed trace's event count and earliest event start (ns), known
  /// before its events are read.
  uint64_t EventCount = 0;
  int64_t EarliestNs = 0;
  /// Applied to every time of a streamed trace's events as events() gives
  /// them (sonde merge places files on one clock); null: none.
  std::function<int64_t(int64_t)> TimeMap;
  double NsPerTick = 1.0;
  /// Every clock anchor, in file order (Events' times are already on the
  /// wall clock through the first and last of them).
  std::vector<ClockAnchor> Anchors;
  /// The clock exchange's result, when the file has one.
  ClockSync Sync;

  /// False when the file ends inside a block (a crash or a kill mid-write):
  /// every record before the tear is in Events.
  bool Complete = true;
  uint64_t StoppedAt = 0; ///< byte offset where reading stopped, if torn
  std::string Problem;    ///< why reading stopped early, if it did

  /// The site `Id` (an event's), or an empty one when none has that id.
  const SiteInfo &site(uint32_t Id) const {
    return Id < Sites.size() ? Sites[Id] : unknownSite();
  }
  static const SiteInfo &unknownSite();
  const ThreadInfo *thread(uint32_t Index) const;
  /// The thread's kernel id, or its index when unknown.
  uint64_t tid(uint32_t Index) const;
};

/// A trace file read as a stream, in memory bounded by its sites, strings
/// and threads and the look-ahead of its ordering, never by its number of
/// records (docs/trace-format.md, "Reading in bounded memory"). open()
/// reads everything but the events (the process, sites, threads, clock,
/// end) and checks every record once, so that the trace's problems, event
/// count and times are known before the first event (openBytes()'
/// CheckAsRead: once the last one was given); next() then gives the events
/// one by one in the order readTrace gives them.
class TraceStream {
public:
  TraceStream();
  ~TraceStream();
  TraceStream(const TraceStream &) = delete;
  TraceStream &operator=(const TraceStream &) = delete;

  /// As readTrace: false with `Error` only when the file is not a sonde
  /// trace or cannot be read. With `Events` false, records are not
  /// checked (fast on any size: `sonde info`).
  bool open(const std::string &Path, std::string &Error, bool Events = true);
  /// open() on bytes in memory, which must outlive the stream, or which
  /// `Owner` keeps alive: with an owner, the stream may keep what it learns
  /// of the bytes while checking them (where each structured value ends)
  /// and setEncodedValues() points values into them.
  ///
  /// `CheckAsRead`: for a reader that can take the file's problems after
  /// its events (sonde check and infer), the records are checked by the
  /// events walk as it gives them, one walk of them instead of two. The
  /// events are the same, and the same records are skipped; the problems,
  /// event count and earliest time are in trace() once next() gave null
  /// (a file with regions open at its end is checked first anyway: their
  /// args are those in force at the end).
  bool openBytes(const uint8_t *Data, size_t Size, const std::string &Path,
                 std::string &Error, bool Events = true,
                 std::shared_ptr<const void> Owner = nullptr,
                 bool CheckAsRead = false);

  /// The trace without its events; complete once open() returned (with
  /// CheckAsRead, once the last event was given).
  Trace &trace();
  /// The next event in order, or null after the last. Valid until the next
  /// call. The first call after the last event starts over.
  Event *next();
  /// Starts the events over from the first.
  void rewind();
  /// Events that went out of order because the look-ahead was full (a
  /// region open for longer than it holds, a thread silent for as long):
  /// so far, up to the event next() gave last, on a walk thread too.
  uint64_t late() const;
  /// What late() means, for a command to say ("N events were given before
  /// an earlier one: ..."), or empty when none was.
  std::string lateText() const;
  /// Events blocks that could not be read again for the events (the file
  /// was cut or removed after open()): their events are missing.
  uint64_t unreadBlocks() const;
  /// What unreadBlocks() means, or empty when none was.
  std::string unreadText() const;
  /// How many events the ordering may hold (default 1 << 20).
  void setLookAhead(size_t Events);
  /// A look-ahead as a user writes it (`--look-ahead N`): N, 1 or more,
  /// into `Events`; else false and `Error` says why.
  static bool parseLookAhead(const std::string &Text, size_t &Events,
                             std::string &Error);
  /// Where the events walk runs: on a thread of its own, a few batches
  /// ahead of the caller (Always), or on the caller's thread (Never, and
  /// Auto: measured faster on idle and busy machines alike). The events and
  /// their order are the same either way.
  enum class WalkThread { Auto, Always, Never };
  void setWalkThread(WalkThread W);
  /// Starts decoding the records now, on a thread of its own, as many as
  /// the ordering may hold before any is asked for (half the look-ahead, at
  /// most 2^18); next() waits for it, then walks on as usual. The events,
  /// their order and late() are the same. A command that takes files one
  /// after another on one core (the ranks of a job) decodes the next file
  /// while it uses the one before: a file whose records all sit inside one
  /// region (a training run inside `train`) could give no event before its
  /// last record anyway. Only trace(), next() and late() may be asked of
  /// the stream until next() was called.
  void walkAhead();
  /// Keep the objects and arrays of values in the file's encoding
  /// (Value::encoded): one allocation per structured value instead of one
  /// per member, for readers that walk the bytes (sonde check). The
  /// values read the same through Value's accessors. Set before next().
  /// A stream opened on bytes with their owner (openBytes) points the
  /// values into them (Value::encodedIn): no copy and no allocation each,
  /// and the values keep the bytes alive.
  void setEncodedValues(bool On);
  /// Give a record args only when its site names args of its own
  /// (SiteInfo::ArgNames): the others get none, not the context they
  /// inherit (a step's records, the step's and the epoch's args). For
  /// readers that read no other args (sonde check and infer: the Feed
  /// takes a site's own args only), which then spend nothing on merging
  /// each record's context. Set before next().
  void setArgsOnlyWhereNamed(bool On);

  struct Impl;

private:
  std::unique_ptr<Impl> I;
};

/// `Out` becomes a copy of `From`'s outline (everything but its events and
/// its stream): what a streamed trace's caller holds, while the stream
/// keeps its own copy for the events it decodes.
void copyOutline(const Trace &From, Trace &Out);

/// Opens `Path` as a stream (TraceStream): `Out` gets everything but the
/// events, `Out.Stream` gives them. Fails as readTrace does.
bool openTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events = true);

/// The events of `T` in time order: those of its stream, read as they are
/// given (each pass starts over), or T.Events.
class EventRange {
public:
  explicit EventRange(const Trace &T) : T(T) {}
  class iterator {
  public:
    iterator() = default;
    iterator(const Trace *T, size_t I) : T(T), I(I) { load(); }
    const Event &operator*() const { return *E; }
    const Event *operator->() const { return E; }
    iterator &operator++() {
      ++I;
      load();
      return *this;
    }
    bool operator!=(const iterator &O) const { return E != O.E; }
    bool operator==(const iterator &O) const { return E == O.E; }

  private:
    void load();
    const Trace *T = nullptr;
    size_t I = 0;
    const Event *E = nullptr;
  };
  iterator begin() const;
  iterator end() const { return iterator(); }

private:
  const Trace &T;
};
inline EventRange events(const Trace &T) { return EventRange(T); }
/// How many events `T` holds (streamed or in memory).
inline uint64_t eventCount(const Trace &T) {
  return T.Stream ? T.EventCount : T.Events.size();
}

/// Reads a trace file. Returns false with `Error` set only when the file is
/// not a sonde trace or cannot be read; a torn file reads as far as it can
/// and says so in Trace::Complete and Trace::Problem.
/// With `Events` false, events are skipped (not decoded): the process, its
/// sites, threads, end record and drop counts only, fast on any size.
bool readTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events = true);

/// readTrace on bytes already in memory (`Path` names them in messages);
/// the fuzzer's entry point.
bool readTraceBytes(const uint8_t *Data, size_t Size, const std::string &Path,
                    Trace &Out, std::string &Error, bool Events = true);

/// Files named on a command line: directories expand to their `*.sonde`
/// files, sorted. Fails on a path that does not exist and on a directory
/// that cannot be read (with its errno) or holds no `*.sonde` file. An
/// entry named `*.sonde` that is not a regular file (a subdirectory) is
/// left out, and said in `Skipped` when given.
bool expandInputs(const std::vector<std::string> &Paths,
                  std::vector<std::string> &Files, std::string &Error,
                  std::vector<std::string> *Skipped = nullptr);

} // namespace sonde::trace

#endif // SONDE_TRACE_H
