//===- Reader.cpp - Decodes .sonde files ----------------------------------===//

#include "sonde/trace.h"

#include "TraceFormat.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <iterator>
#include <map>
#include <queue>
#include <sys/stat.h>
#include <unordered_map>

namespace sonde::trace {
namespace {

using format::Block;
using format::Cursor;
using format::Ev;
using format::Val;

std::string readStr(Cursor &C) {
  uint64_t N = C.varint();
  const uint8_t *P = C.bytes(N);
  return P ? std::string(reinterpret_cast<const char *>(P), N) : std::string();
}

/// Per-thread decoding state: the running timestamp and the stack of
/// context pushes (args in force).
struct CtxEntry {
  uint32_t Site;
  bool Inherit;
  Args Values;
};
struct ThreadDecode {
  std::vector<CtxEntry> Ctx;
  /// The arg set last computed, valid while the stack is unchanged.
  const Args *Cached = nullptr;
  uint32_t CachedOwn = ~0u;
  bool Valid = false;
};

class Decoder {
public:
  Decoder(Trace &T) : T(T) {}

  bool decodeValue(Cursor &C, Value &V, unsigned Depth = 0);
  void block(Block B, Cursor &C, bool Torn);
  void finish();

  Trace &T;
  /// The file's first byte, for the offsets in messages.
  const uint8_t *Base = nullptr;
  /// Whether Level records give instants and watches their nesting level
  /// (format 1.2); before, a record on the tick a region starts on is
  /// placed inside it.
  bool PointLevels = true;
  /// The first corruption found and how many more: the reader skips what it
  /// cannot trust and says so once (Trace::Problem).
  std::string Corrupt;
  size_t MoreCorrupt = 0;
  std::string TimeProblem; ///< times out of range, set by finish()
  std::unordered_map<uint32_t, std::string> Strings;
  std::map<uint32_t, ThreadDecode> Threads;
  std::vector<ClockAnchor> &Anchors = T.Anchors;
  std::map<uint32_t, uint64_t> Dropped;
  uint64_t MaxTsc = 0;
  uint64_t EndTsc = 0;

private:
  void events(Cursor &C);
  void programOrder();
  /// Notes a record or block the file cannot have; its reader skips the
  /// rest of the block (its framing may be off from there).
  void corrupt(const uint8_t *At, const std::string &What) {
    if (!Corrupt.empty()) {
      ++MoreCorrupt;
      return;
    }
    Corrupt = "byte " + std::to_string(At - Base) + ": " + What;
  }
  /// The site's description in messages.
  std::string siteName(uint64_t Id) const {
    return "site " + std::to_string(Id) +
           (Id < T.Sites.size() && T.Sites[Id].Id == Id
                ? " ('" + T.Sites[Id].Name + "')"
                : std::string());
  }
  /// Null when `Site` (a number as the file gives it) is defined and may
  /// carry a record of type `Type`, else why not.
  const char *checkSite(uint64_t Site, Ev Type) const;
  /// Whether a Thread block announced `Index` (a number as the file gives
  /// it).
  bool knownThread(uint64_t Index) const {
    return Index <= UINT32_MAX &&
           T.thread(static_cast<uint32_t>(Index)) != nullptr;
  }
  /// Per event, in file order: the nesting level that orders it (a
  /// region's own, an instant's or watch's from Level records), NoLevel
  /// when the file does not say.
  std::vector<uint32_t> OrderLevel;
  static constexpr uint32_t NoLevel = ~0u;
  const Args *argsFor(ThreadDecode &TD, uint32_t OwnSite);
  const Args *intern(Args A) {
    if (A.empty())
      return T.ArgSets.front().get();
    T.ArgSets.push_back(std::make_unique<Args>(std::move(A)));
    return T.ArgSets.back().get();
  }
  /// Site ids are dense (given out at first hit, each written in a Site
  /// block), so an id far beyond the file's size is corruption: it must not
  /// size the table (a 10-byte file once asked for 400 GB).
  bool ensureSite(uint32_t Id) {
    if (Id > MaxSite)
      return false;
    if (T.Sites.size() <= Id)
      T.Sites.resize(Id + 1);
    return true;
  }

public:
  uint32_t MaxSite = 1u << 24;
};

bool Decoder::decodeValue(Cursor &C, Value &V, unsigned Depth) {
  if (Depth > 64)
    return false;
  auto Tag = static_cast<Val>(C.byte());
  if (!C.ok())
    return false;
  switch (Tag) {
  case Val::Null:
    V.K = Value::Kind::Null;
    return true;
  case Val::False:
  case Val::True:
    V.K = Value::Kind::Bool;
    V.B = Tag == Val::True;
    return true;
  case Val::Int:
    V.K = Value::Kind::Int;
    V.I = C.svarint();
    return C.ok();
  case Val::UInt:
    V.K = Value::Kind::UInt;
    V.U = C.varint();
    return C.ok();
  case Val::Float:
    V.K = Value::Kind::Float;
    V.F = C.f64();
    return C.ok();
  case Val::String:
    V = Value::string(readStr(C));
    return C.ok();
  case Val::Object: {
    Value::Members M;
    uint64_t N = C.varint();
    bool Ok = true;
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      uint64_t Key = C.varint();
      auto It = Strings.find(static_cast<uint32_t>(Key));
      if (!C.ok() || It == Strings.end() || Key > UINT32_MAX)
        return false; // every key is defined by a String block before use
      M.emplace_back(It->second, Value());
      if (!decodeValue(C, M.back().second, Depth + 1)) {
        Ok = C.ok(); // truncated inside: keep what came before
        break;
      }
      if (M.back().second.K == Value::Kind::Truncated)
        break;
    }
    V = Value::object(std::move(M));
    return Ok && C.ok();
  }
  case Val::Array: {
    std::vector<Value> Items;
    uint64_t N = C.varint();
    bool Ok = true;
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      Items.emplace_back();
      if (!decodeValue(C, Items.back(), Depth + 1)) {
        Ok = C.ok();
        break;
      }
      if (Items.back().K == Value::Kind::Truncated)
        break;
    }
    V = Value::array(std::move(Items));
    return Ok && C.ok();
  }
  case Val::Truncated:
    V.K = Value::Kind::Truncated;
    return true;
  }
  return false;
}

const Args *Decoder::argsFor(ThreadDecode &TD, uint32_t OwnSite) {
  // The innermost push of the record's own site is its own args, whether
  // or not they are context for others.
  const CtxEntry *Own = nullptr;
  if (OwnSite)
    for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
      if (It->Site == OwnSite) {
        Own = &*It;
        break;
      }
  uint32_t OwnIndex = Own ? static_cast<uint32_t>(Own - TD.Ctx.data()) : ~0u;
  if (TD.Valid && TD.CachedOwn == OwnIndex)
    return TD.Cached;
  Args Out;
  auto Put = [&Out](const Args &A) {
    for (const auto &KV : A) {
      auto It = std::find_if(Out.begin(), Out.end(), [&](const auto &O) {
        return O.first == KV.first;
      });
      if (It != Out.end())
        It->second = KV.second;
      else
        Out.push_back(KV);
    }
  };
  for (const CtxEntry &E : TD.Ctx)
    if (E.Inherit && &E != Own)
      Put(E.Values);
  if (Own)
    Put(Own->Values);
  TD.Cached = intern(std::move(Out));
  TD.CachedOwn = OwnIndex;
  TD.Valid = true;
  return TD.Cached;
}

const char *Decoder::checkSite(uint64_t Site, Ev Type) const {
  if (Site == 0 || Site >= T.Sites.size() || T.Sites[Site].Id != Site)
    return "a record of a site no Site block defined";
  SiteKind K = T.Sites[Site].Kind;
  switch (Type) {
  case Ev::Region:
  case Ev::RegionIt:
  case Ev::InstantStart: // a `mode: instant` region
  case Ev::InstantStop:
    return K == SiteKind::Region || K == SiteKind::Loop
               ? nullptr
               : "a region record of a site that is not a region or loop";
  case Ev::Instant:
    return K == SiteKind::Instant ? nullptr
                                  : "an instant record of a non-instant site";
  case Ev::Watch:
    return K == SiteKind::Watch || K == SiteKind::State || K == SiteKind::Api
               ? nullptr
               : "a watch record of a site that is not a watch, state or api";
  case Ev::CtxPush:
  case Ev::CtxPop:
    return K == SiteKind::Frame ? "a context record of a frame site" : nullptr;
  case Ev::Level:
    break;
  }
  return "a record of an unknown type";
}

void Decoder::events(Cursor &C) {
  const uint8_t *BlockAt = C.pos();
  uint64_t ThreadV = C.varint();
  uint64_t Tsc = C.varint();
  if (!C.ok())
    return corrupt(BlockAt, "an events block without its thread and time");
  if (!knownThread(ThreadV))
    return corrupt(BlockAt, "an events block of thread " +
                                std::to_string(ThreadV) +
                                ", which no Thread block announced");
  auto Thread = static_cast<uint32_t>(ThreadV);
  ThreadDecode &TD = Threads[Thread];
  // The level of instants and watches: 0 until a Level record says more.
  uint32_t PointLevel = 0;
  while (!C.atEnd()) {
    const uint8_t *At = C.pos();
    uint64_t Head = C.varint();
    auto Type = static_cast<Ev>(Head & 0xf);
    if (C.ok() && Type == Ev::Level) {
      if ((Head >> 4) > format::MaxLevel)
        return corrupt(At, "a nesting level of " + std::to_string(Head >> 4));
      PointLevel = static_cast<uint32_t>(Head >> 4);
      continue;
    }
    Tsc += static_cast<uint64_t>(C.svarint());
    if (!C.ok())
      return corrupt(At, "a record cut short");
    if (const char *Bad = checkSite(Head >> 4, Type))
      return corrupt(At, std::string(Bad) + " (" + siteName(Head >> 4) + ")");
    auto Site = static_cast<uint32_t>(Head >> 4);
    Event E;
    E.Site = Site;
    E.Thread = Thread;
    E.Ts = static_cast<int64_t>(Tsc); // ticks until finish()
    uint32_t Order = PointLevels ? PointLevel : NoLevel;
    switch (Type) {
    case Ev::Region:
    case Ev::RegionIt: {
      uint64_t Dur = C.varint();
      uint64_t Level = C.varint();
      if (Type == Ev::RegionIt)
        E.Iter = static_cast<int64_t>(C.varint());
      if (!C.ok())
        return corrupt(At, "a region record cut short");
      if (Level > format::MaxLevel)
        return corrupt(At,
                       "a region at nesting level " + std::to_string(Level));
      if (Dur > Tsc)
        return corrupt(At, "a region that starts before the clock's zero");
      E.Level = static_cast<uint32_t>(Level);
      Order = E.Level;
      E.Kind = EventKind::Region;
      E.Ts = static_cast<int64_t>(Tsc - Dur);
      E.Dur = static_cast<int64_t>(Dur);
      E.A = argsFor(TD, Site);
      break;
    }
    case Ev::Instant:
    case Ev::InstantStart:
    case Ev::InstantStop:
      E.Kind = EventKind::Instant;
      E.Ph = Type == Ev::InstantStart  ? Event::Phase::Start
             : Type == Ev::InstantStop ? Event::Phase::Stop
                                       : Event::Phase::None;
      E.A = argsFor(TD, 0);
      break;
    case Ev::Watch:
      E.Kind = EventKind::Watch;
      if (!decodeValue(C, E.V))
        return corrupt(At, "a watch whose value cannot be decoded (" +
                               siteName(Site) + ")");
      E.A = argsFor(TD, 0);
      break;
    case Ev::CtxPush: {
      uint64_t N = C.varint();
      CtxEntry Entry{Site, (T.Sites[Site].Flags & 4) != 0, {}};
      const auto &Names = T.Sites[Site].ArgNames;
      for (uint64_t I = 0; I < N && C.ok(); ++I) {
        Value V;
        if (!decodeValue(C, V))
          return corrupt(At, "context values that cannot be decoded (" +
                                 siteName(Site) + ")");
        Entry.Values.emplace_back(I < Names.size() ? Names[I]
                                               : "arg" + std::to_string(I),
                              std::move(V));
      }
      if (!C.ok())
        return corrupt(At, "a context record cut short");
      TD.Ctx.push_back(std::move(Entry));
      TD.Valid = false;
      MaxTsc = std::max(MaxTsc, Tsc);
      continue;
    }
    case Ev::CtxPop: {
      for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
        if (It->Site == Site) {
          TD.Ctx.erase(std::next(It).base());
          TD.Valid = false;
          break;
        }
      MaxTsc = std::max(MaxTsc, Tsc);
      continue;
    }
    default:
      return corrupt(At, "a record of unknown type " +
                             std::to_string(static_cast<int>(Type)));
    }
    MaxTsc = std::max(MaxTsc, Tsc);
    T.Events.push_back(std::move(E));
    OrderLevel.push_back(Order);
  }
}

void Decoder::block(Block B, Cursor &C, bool Torn) {
  switch (B) {
  case Block::Process: {
    const uint8_t *At = C.pos();
    ProcessInfo &P = T.Process;
    P.Pid = C.varint();
    P.PPid = C.varint();
    P.Rank = static_cast<int64_t>(C.varint());
    P.Host = readStr(C);
    P.Program = readStr(C);
    uint64_t Start = C.varint();
    P.StartNs = static_cast<int64_t>(std::min<uint64_t>(Start, MaxTimeNs));
    if (C.ok() && !C.atEnd()) // format 1.1 appends the boot id
      P.BootId = readStr(C);
    if (Start > static_cast<uint64_t>(MaxTimeNs))
      return corrupt(At, "a process start time after the year 2116");
    break;
  }
  case Block::Clock: {
    const uint8_t *At = C.pos();
    ClockAnchor A;
    A.Tsc = C.varint();
    uint64_t Real = C.varint();
    uint64_t Mono = C.varint();
    if (!C.ok())
      return corrupt(At, "a clock anchor cut short");
    if (Real > static_cast<uint64_t>(MaxTimeNs) ||
        Mono > static_cast<uint64_t>(MaxTimeNs))
      return corrupt(At, "a clock anchor after the year 2116");
    A.RealNs = static_cast<int64_t>(Real);
    A.MonoNs = static_cast<int64_t>(Mono);
    Anchors.push_back(A);
    break;
  }
  case Block::String: {
    uint32_t Id = static_cast<uint32_t>(C.varint());
    std::string S = readStr(C);
    if (C.ok())
      Strings[Id] = std::move(S);
    break;
  }
  case Block::Site: {
    const uint8_t *At = C.pos();
    uint64_t IdV = C.varint();
    if (!C.ok() || IdV == 0 || IdV > MaxSite)
      return corrupt(At, "a site id of " + std::to_string(IdV));
    auto Id = static_cast<uint32_t>(IdV);
    SiteInfo S;
    S.Id = Id;
    uint8_t Kind = C.byte();
    S.Kind = static_cast<SiteKind>(Kind);
    S.Flags = C.byte();
    uint64_t Line = C.varint();
    S.Line = static_cast<uint32_t>(Line);
    S.StableId = C.varint();
    S.Category = readStr(C);
    S.Name = readStr(C);
    S.File = readStr(C);
    S.Function = readStr(C);
    std::string Args = readStr(C);
    S.Type = readStr(C);
    if (!C.ok())
      return corrupt(At, "a site block cut short");
    if (Kind < static_cast<uint8_t>(SiteKind::Region) ||
        Kind > static_cast<uint8_t>(SiteKind::Api))
      return corrupt(At, "site " + std::to_string(Id) + " of unknown kind " +
                             std::to_string(Kind));
    if (Line > UINT32_MAX)
      return corrupt(At, "site " + std::to_string(Id) + " on line " +
                             std::to_string(Line));
    // A site is described once; a second description (a flipped bit in
    // an id) would change the kind of records already read.
    if (Id < T.Sites.size() && T.Sites[Id].Id == Id)
      return corrupt(At, "site " + std::to_string(Id) + " defined twice");
    ensureSite(Id);
    T.Sites[Id] = std::move(S);
    SiteInfo &Def = T.Sites[Id];
    Def.ArgNames.clear();
    size_t Pos = 0;
    while (!Args.empty() && Pos <= Args.size()) {
      size_t Comma = Args.find(',', Pos);
      if (Comma == std::string::npos)
        Comma = Args.size();
      Def.ArgNames.push_back(Args.substr(Pos, Comma - Pos));
      Pos = Comma + 1;
    }
    break;
  }
  case Block::Thread: {
    const uint8_t *At = C.pos();
    ThreadInfo TI;
    uint64_t Index = C.varint();
    TI.Index = static_cast<uint32_t>(Index);
    TI.Tid = C.varint();
    TI.Name = readStr(C);
    if (!C.ok() || Index > UINT32_MAX)
      return corrupt(At, "a thread block cut short or of thread " +
                             std::to_string(Index));
    auto It = std::find_if(T.Threads.begin(), T.Threads.end(),
                           [&](const ThreadInfo &O) { return O.Index == TI.Index; });
    if (It != T.Threads.end())
      *It = TI; // a rename
    else
      T.Threads.push_back(TI);
    break;
  }
  case Block::Events:
    events(C);
    break;
  case Block::Dropped: {
    const uint8_t *At = C.pos();
    uint64_t Thread = C.varint();
    uint64_t N = C.varint();
    if (!C.ok() || !knownThread(Thread))
      return corrupt(At, "a dropped-records block of an unknown thread");
    Dropped[static_cast<uint32_t>(Thread)] = N;
    break;
  }
  case Block::Unfinished: {
    const uint8_t *At = C.pos();
    uint64_t ThreadV = C.varint();
    uint64_t SiteV = C.varint();
    uint64_t Start = C.varint();
    uint64_t LevelV = C.varint();
    if (!C.ok() || !knownThread(ThreadV))
      return corrupt(At, "an unfinished region of an unknown thread");
    if (const char *Bad = checkSite(SiteV, Ev::Region))
      return corrupt(At, std::string(Bad) + " (" + siteName(SiteV) + ")");
    auto Site = static_cast<uint32_t>(SiteV);
    if (LevelV > format::MaxLevel)
      return corrupt(At, "an unfinished region at nesting level " +
                             std::to_string(LevelV));
    auto Thread = static_cast<uint32_t>(ThreadV);
    auto Level = static_cast<uint32_t>(LevelV);
    Event E;
    E.Kind = EventKind::Region;
    E.Unfinished = true;
    E.Site = Site;
    E.Thread = Thread;
    E.Level = Level;
    E.Ts = static_cast<int64_t>(Start);
    E.Dur = -1; // until the end of the trace, set in finish()
    E.A = argsFor(Threads[Thread], Site);
    T.Events.push_back(std::move(E));
    OrderLevel.push_back(Level);
    break;
  }
  case Block::End: {
    T.Process.Ended = true;
    T.Process.How = readStr(C);
    T.Process.Dropped = C.varint();
    if (!Anchors.empty())
      EndTsc = Anchors.back().Tsc;
    break;
  }
  }
  (void)Torn;
}

void Decoder::programOrder() {
  // Each thread's records in the order the program made them, whatever the
  // clock says. A thread's file order is the order its records were
  // completed: a region comes after everything inside it. Turned around
  // (post-order to pre-order): a region at level L goes before the run of
  // records just before it whose level is deeper than L. Threads are then
  // merged by time, each keeping its own order.
  constexpr uint32_t None = ~0u;
  const size_t N = T.Events.size();
  std::map<uint32_t, std::vector<uint32_t>> ByThread;
  for (size_t I = 0; I < N; ++I)
    ByThread[T.Events[I].Thread].push_back(static_cast<uint32_t>(I));
  std::vector<uint32_t> Next(N, None), Prev(N, None);
  auto Inside = [&](uint32_t Node, const Event &R) {
    const Event &E = T.Events[Node];
    if (OrderLevel[Node] != NoLevel)
      return OrderLevel[Node] > R.Level;
    return E.Ts >= R.Ts; // format 1.1: a tie goes inside
  };
  struct Root {
    uint32_t First; ///< the first record of its subtree in the list
    uint32_t Node;
  };
  std::vector<Root> Roots;
  std::vector<uint32_t> Heads;
  for (auto &[Thread, List] : ByThread) {
    // Regions still open at the end were written outermost first: take
    // them innermost first, each around what came before it.
    auto Open =
        std::stable_partition(List.begin(), List.end(), [&](uint32_t I) {
          return !T.Events[I].Unfinished;
        });
    std::stable_sort(Open, List.end(), [&](uint32_t A, uint32_t B) {
      return T.Events[A].Level > T.Events[B].Level;
    });
    Roots.clear();
    uint32_t Head = None, Tail = None;
    for (uint32_t I : List) {
      const Event &E = T.Events[I];
      uint32_t Adopted = None;
      if (E.Kind == EventKind::Region)
        while (!Roots.empty() && Inside(Roots.back().Node, E)) {
          Adopted = Roots.back().First;
          Roots.pop_back();
        }
      if (Adopted == None) { // at the end of the list
        Prev[I] = Tail;
        if (Tail != None)
          Next[Tail] = I;
        else
          Head = I;
        Tail = I;
      } else { // before its first nested record
        Prev[I] = Prev[Adopted];
        Next[I] = Adopted;
        if (Prev[Adopted] != None)
          Next[Prev[Adopted]] = I;
        else
          Head = I;
        Prev[Adopted] = I;
      }
      Roots.push_back({I, I});
    }
    Heads.push_back(Head);
  }
  // Merge the threads by time (file order between equal times).
  auto Later = [&](uint32_t A, uint32_t B) {
    const Event &EA = T.Events[A], &EB = T.Events[B];
    return EA.Ts != EB.Ts ? EA.Ts > EB.Ts : A > B;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(Later)> Queue(
      Later, std::move(Heads));
  std::vector<Event> Sorted;
  Sorted.reserve(N);
  while (!Queue.empty()) {
    uint32_t I = Queue.top();
    Queue.pop();
    Sorted.push_back(std::move(T.Events[I]));
    if (Next[I] != None)
      Queue.push(Next[I]);
  }
  T.Events = std::move(Sorted);
}

void Decoder::finish() {
  // Time: a straight line through the first and last anchors. The TSC is
  // invariant on the machines we run on; the writer anchors every second.
  double Rate = 1.0;
  uint64_t BaseTsc = 0;
  int64_t BaseNs = T.Process.StartNs;
  if (!Anchors.empty()) {
    BaseTsc = Anchors.front().Tsc;
    BaseNs = Anchors.front().RealNs;
    const ClockAnchor &L = Anchors.back();
    if (Anchors.size() >= 2 && L.Tsc > BaseTsc)
      // Unsigned arithmetic wraps where signed would overflow on a corrupt
      // anchor; on a real one both give the same difference.
      Rate = static_cast<double>(static_cast<int64_t>(
                 static_cast<uint64_t>(L.RealNs) -
                 static_cast<uint64_t>(BaseNs))) /
             static_cast<double>(L.Tsc - BaseTsc);
  }
  T.NsPerTick = Rate;
  auto ToNs = [&](uint64_t Tsc) {
    int64_t Off = static_cast<int64_t>(std::llround(
        static_cast<double>(static_cast<int64_t>(Tsc - BaseTsc)) * Rate));
    // A corrupt timestamp saturates instead of overflowing (found by
    // fuzz-trace).
    int64_t Ns;
    if (__builtin_add_overflow(BaseNs, Off, &Ns))
      Ns = Off > 0 ? INT64_MAX : INT64_MIN;
    return Ns;
  };
  uint64_t Last = std::max(MaxTsc, EndTsc);
  if (!Anchors.empty())
    Last = std::max(Last, Anchors.back().Tsc);
  // Times outside [0, MaxTimeNs] (a corrupt anchor or timestamp) are held
  // at its bounds, and said.
  size_t OutOfRange = 0;
  auto Bound = [&](int64_t Ns) {
    if (Ns >= 0 && Ns <= MaxTimeNs)
      return Ns;
    ++OutOfRange;
    return Ns < 0 ? int64_t(0) : MaxTimeNs;
  };
  for (Event &E : T.Events) {
    uint64_t Tsc = static_cast<uint64_t>(E.Ts);
    E.Ts = Bound(ToNs(Tsc));
    if (E.Kind == EventKind::Region) {
      uint64_t DurTicks = E.Dur >= 0 ? static_cast<uint64_t>(E.Dur)
                                     : (Last > Tsc ? Last - Tsc : 0);
      // The end converted as a point, not the length as a length: rounded
      // apart, Ts + Dur could pass the start of what follows by 1 ns.
      E.Dur = std::max<int64_t>(0, Bound(ToNs(Tsc + DurTicks)) - E.Ts);
    }
  }
  if (OutOfRange)
    TimeProblem = std::to_string(OutOfRange) +
                  " times before 1970 or after 2116 (a corrupt clock anchor "
                  "or timestamp) were held at those bounds";
  programOrder();
  uint64_t Sum = 0;
  for (const auto &KV : Dropped)
    Sum += KV.second;
  T.Process.Dropped = std::max(T.Process.Dropped, Sum);
  T.Process.EndNs = std::max(T.Process.StartNs, Bound(ToNs(Last)));
}

} // namespace

double Value::number() const {
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
    return NAN;
  }
}

struct Value::Composite {
  std::string S;
  Members M;
  std::vector<Value> Items;
};

const std::string &Value::str() const {
  static const std::string Empty;
  return C ? C->S : Empty;
}

const Value::Members &Value::members() const {
  static const Members Empty;
  return C ? C->M : Empty;
}

const std::vector<Value> &Value::items() const {
  static const std::vector<Value> Empty;
  return C ? C->Items : Empty;
}

const Value *Value::get(std::string_view Key) const {
  for (const auto &KV : members())
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
}

Value Value::string(std::string S) {
  Value V;
  V.K = Kind::String;
  auto P = std::make_shared<Composite>();
  P->S = std::move(S);
  V.C = std::move(P);
  return V;
}

Value Value::object(Members M) {
  Value V;
  V.K = Kind::Object;
  auto P = std::make_shared<Composite>();
  P->M = std::move(M);
  V.C = std::move(P);
  return V;
}

Value Value::array(std::vector<Value> Items) {
  Value V;
  V.K = Kind::Array;
  auto P = std::make_shared<Composite>();
  P->Items = std::move(Items);
  V.C = std::move(P);
  return V;
}

std::string SiteInfo::topCategory() const {
  return Category.substr(0, Category.find('.'));
}

const SiteInfo &Trace::site(uint32_t Id) const {
  static const SiteInfo Unknown;
  return Id < Sites.size() ? Sites[Id] : Unknown;
}

const ThreadInfo *Trace::thread(uint32_t Index) const {
  for (const ThreadInfo &TI : Threads)
    if (TI.Index == Index)
      return &TI;
  return nullptr;
}

uint64_t Trace::tid(uint32_t Index) const {
  const ThreadInfo *TI = thread(Index);
  return TI ? TI->Tid : Index;
}

bool readTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events) {
  std::vector<uint8_t> Bytes;
  {
    std::FILE *F = std::fopen(Path.c_str(), "rb");
    if (!F) {
      Error = Path + ": cannot open";
      return false;
    }
    struct stat St;
    if (fstat(fileno(F), &St) == 0 && St.st_size > 0)
      Bytes.reserve(static_cast<size_t>(St.st_size));
    uint8_t Buf[1 << 16];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0)
      Bytes.insert(Bytes.end(), Buf, Buf + N);
    std::fclose(F);
  }
  return readTraceBytes(Bytes.data(), Bytes.size(), Path, Out, Error, Events);
}

bool readTraceBytes(const uint8_t *Data, size_t Size, const std::string &Path,
                    Trace &Out, std::string &Error, bool Events) {
  // The decoder reads through a vector-like view of the bytes.
  struct View {
    const uint8_t *P;
    size_t N;
    size_t size() const { return N; }
    const uint8_t *data() const { return P; }
    uint8_t operator[](size_t I) const { return P[I]; }
  } Bytes{Data, Size};
  Out = Trace();
  Out.Path = Path;
  if (Bytes.size() < format::FileHeaderSize ||
      std::memcmp(Bytes.data(), format::Magic, 8) != 0) {
    Error = Path + ": not a sonde trace (bad magic)";
    return false;
  }
  Out.VersionMajor = static_cast<uint16_t>(Bytes[8] | (Bytes[9] << 8));
  Out.VersionMinor = static_cast<uint16_t>(Bytes[10] | (Bytes[11] << 8));
  if (Out.VersionMajor != format::Major) {
    Error = Path + ": trace format " + std::to_string(Out.VersionMajor) +
            "." + std::to_string(Out.VersionMinor) +
            " is not readable by this sonde (format " +
            std::to_string(format::Major) + ".x)";
    return false;
  }
  Out.ArgSets.push_back(std::make_unique<Args>()); // the empty set
  if (Events)
    Out.Events.reserve(Bytes.size() / 5);
  Decoder D(Out);
  D.Base = Data;
  D.PointLevels = Out.VersionMinor >= 2;
  D.MaxSite = static_cast<uint32_t>(std::min<size_t>(1u << 24, 4096 + Size));
  size_t Pos = format::FileHeaderSize;
  while (Pos < Bytes.size()) {
    if (Bytes.size() - Pos < format::BlockHeaderSize) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem = "the file ends inside a block header";
      break;
    }
    auto Type = static_cast<Block>(Bytes[Pos]);
    uint32_t Len = 0;
    for (int I = 0; I < 4; ++I)
      Len |= static_cast<uint32_t>(Bytes[Pos + 1 + I]) << (8 * I);
    size_t Body = Pos + format::BlockHeaderSize;
    if (Type < Block::Process || Type > Block::End) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem = "unknown block type " +
                    std::to_string(static_cast<int>(Type));
      break;
    }
    bool Torn = Body + Len > Bytes.size();
    size_t Have = Torn ? Bytes.size() - Body : Len;
    Cursor C(Bytes.data() + Body, Bytes.data() + Body + Have);
    if (Events || Type != Block::Events)
      D.block(Type, C, Torn);
    if (Torn) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem = "the file ends inside a block of " + std::to_string(Len) +
                    " bytes (" + std::to_string(Have) +
                    " present); records before the tear are kept";
      break;
    }
    Pos = Body + Len;
  }
  if (Out.Complete && !Out.Process.Ended) {
    Out.Problem = "no end record: the process was killed or is still running";
  }
  D.finish();
  // Never silent: what was skipped or corrected, once.
  auto Say = [&Out](const std::string &What) {
    Out.Problem = Out.Problem.empty() ? What : Out.Problem + "; " + What;
  };
  if (!D.Corrupt.empty())
    Say("corrupt: " + D.Corrupt +
        (D.MoreCorrupt ? " (and " + std::to_string(D.MoreCorrupt) + " more)"
                       : std::string()) +
        "; the rest of each such block was skipped");
  if (!D.TimeProblem.empty())
    Say(D.TimeProblem);
  return true;
}

bool expandInputs(const std::vector<std::string> &Paths,
                  std::vector<std::string> &Files, std::string &Error,
                  std::vector<std::string> *Skipped) {
  for (const std::string &P : Paths) {
    struct stat St;
    if (stat(P.c_str(), &St) != 0) {
      Error = P + ": " + std::strerror(errno);
      return false;
    }
    if (!S_ISDIR(St.st_mode)) {
      Files.push_back(P);
      continue;
    }
    std::vector<std::string> Found;
    size_t SkippedBefore = Skipped ? Skipped->size() : 0;
    DIR *D = opendir(P.c_str());
    if (!D) {
      Error = P + ": cannot read this directory: " + std::strerror(errno);
      return false;
    }
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N.size() <= 6 || N.compare(N.size() - 6, 6, ".sonde") != 0)
        continue;
      std::string F = P + "/" + N;
      struct stat FSt;
      if (stat(F.c_str(), &FSt) != 0 || !S_ISREG(FSt.st_mode)) {
        if (Skipped)
          Skipped->push_back(F + ": not a regular file; skipped");
        continue;
      }
      Found.push_back(F);
    }
    closedir(D);
    std::sort(Found.begin(), Found.end());
    if (Skipped)
      std::sort(Skipped->begin() + SkippedBefore, Skipped->end());
    if (Found.empty()) {
      Error = P + ": no .sonde files in this directory";
      return false;
    }
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return true;
}

} // namespace sonde::trace
