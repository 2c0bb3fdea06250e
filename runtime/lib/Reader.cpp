//===- Reader.cpp - Decodes .sonde files ----------------------------------===//

#include "sonde/trace.h"

#include "Format.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <iterator>
#include <map>
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
  std::unordered_map<uint32_t, std::string> Strings;
  std::map<uint32_t, ThreadDecode> Threads;
  std::vector<ClockAnchor> &Anchors = T.Anchors;
  std::map<uint32_t, uint64_t> Dropped;
  uint64_t MaxTsc = 0;
  uint64_t EndTsc = 0;

private:
  void events(Cursor &C);
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
      uint32_t Key = static_cast<uint32_t>(C.varint());
      auto It = Strings.find(Key);
      M.emplace_back(It != Strings.end() ? It->second : "?", Value());
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

void Decoder::events(Cursor &C) {
  uint32_t Thread = static_cast<uint32_t>(C.varint());
  uint64_t Tsc = C.varint();
  if (!C.ok())
    return;
  ThreadDecode &TD = Threads[Thread];
  while (!C.atEnd()) {
    uint64_t Head = C.varint();
    auto Type = static_cast<Ev>(Head & 0xf);
    auto Site = static_cast<uint32_t>(Head >> 4);
    Tsc += static_cast<uint64_t>(C.svarint());
    if (!C.ok() || !ensureSite(Site))
      return;
    Event E;
    E.Site = Site;
    E.Thread = Thread;
    E.Ts = static_cast<int64_t>(Tsc); // ticks until finish()
    switch (Type) {
    case Ev::Region:
    case Ev::RegionIt: {
      uint64_t Dur = C.varint();
      E.Level = static_cast<uint32_t>(C.varint());
      if (Type == Ev::RegionIt)
        E.Iter = static_cast<int64_t>(C.varint());
      if (!C.ok())
        return;
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
        return;
      E.A = argsFor(TD, 0);
      break;
    case Ev::CtxPush: {
      uint64_t N = C.varint();
      CtxEntry Entry{Site, (T.Sites[Site].Flags & 4) != 0, {}};
      const auto &Names = T.Sites[Site].ArgNames;
      for (uint64_t I = 0; I < N && C.ok(); ++I) {
        Value V;
        if (!decodeValue(C, V))
          return;
        Entry.Values.emplace_back(I < Names.size() ? Names[I]
                                               : "arg" + std::to_string(I),
                              std::move(V));
      }
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
      C.bytes(C.left() + 1); // unknown record type: the block is unreadable
      return;
    }
    MaxTsc = std::max(MaxTsc, Tsc);
    T.Events.push_back(std::move(E));
  }
}

void Decoder::block(Block B, Cursor &C, bool Torn) {
  switch (B) {
  case Block::Process: {
    ProcessInfo &P = T.Process;
    P.Pid = C.varint();
    P.PPid = C.varint();
    P.Rank = static_cast<int64_t>(C.varint());
    P.Host = readStr(C);
    P.Program = readStr(C);
    P.StartNs = static_cast<int64_t>(C.varint());
    if (C.ok() && !C.atEnd()) // format 1.1 appends the boot id
      P.BootId = readStr(C);
    break;
  }
  case Block::Clock: {
    ClockAnchor A;
    A.Tsc = C.varint();
    A.RealNs = static_cast<int64_t>(C.varint());
    A.MonoNs = static_cast<int64_t>(C.varint());
    if (C.ok())
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
    uint32_t Id = static_cast<uint32_t>(C.varint());
    if (!C.ok() || Id == 0 || !ensureSite(Id))
      break;
    SiteInfo &S = T.Sites[Id];
    S.Id = Id;
    S.Kind = static_cast<SiteKind>(C.byte());
    S.Flags = C.byte();
    S.Line = static_cast<uint32_t>(C.varint());
    S.StableId = C.varint();
    S.Category = readStr(C);
    S.Name = readStr(C);
    S.File = readStr(C);
    S.Function = readStr(C);
    std::string Args = readStr(C);
    S.Type = readStr(C);
    S.ArgNames.clear();
    size_t Pos = 0;
    while (!Args.empty() && Pos <= Args.size()) {
      size_t Comma = Args.find(',', Pos);
      if (Comma == std::string::npos)
        Comma = Args.size();
      S.ArgNames.push_back(Args.substr(Pos, Comma - Pos));
      Pos = Comma + 1;
    }
    break;
  }
  case Block::Thread: {
    ThreadInfo TI;
    TI.Index = static_cast<uint32_t>(C.varint());
    TI.Tid = C.varint();
    TI.Name = readStr(C);
    if (!C.ok())
      break;
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
    uint32_t Thread = static_cast<uint32_t>(C.varint());
    uint64_t N = C.varint();
    if (C.ok())
      Dropped[Thread] = N;
    break;
  }
  case Block::Unfinished: {
    uint32_t Thread = static_cast<uint32_t>(C.varint());
    uint32_t Site = static_cast<uint32_t>(C.varint());
    uint64_t Start = C.varint();
    uint32_t Level = static_cast<uint32_t>(C.varint());
    if (!C.ok() || !ensureSite(Site))
      break;
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
  for (Event &E : T.Events) {
    uint64_t Tsc = static_cast<uint64_t>(E.Ts);
    E.Ts = ToNs(Tsc);
    if (E.Kind == EventKind::Region) {
      uint64_t DurTicks = E.Dur >= 0 ? static_cast<uint64_t>(E.Dur)
                                     : (Last > Tsc ? Last - Tsc : 0);
      // The end converted as a point, not the length as a length: rounded
      // apart, Ts + Dur could pass the start of what follows by 1 ns.
      // (Saturated on a corrupt trace rather than overflowing.)
      if (__builtin_sub_overflow(ToNs(Tsc + DurTicks), E.Ts, &E.Dur))
        E.Dur = INT64_MAX;
    }
  }
  // Time order, nesting level breaking ties (a parent before its first
  // child), file order after that. Sorting keys and then moving each event
  // once is cheaper than sorting the events themselves.
  struct Key {
    int64_t Ts;
    uint32_t Level;
    uint32_t Index;
  };
  std::vector<Key> Keys(T.Events.size());
  for (size_t I = 0; I < Keys.size(); ++I)
    Keys[I] = {T.Events[I].Ts, T.Events[I].Level, static_cast<uint32_t>(I)};
  std::sort(Keys.begin(), Keys.end(), [](const Key &A, const Key &B) {
    if (A.Ts != B.Ts)
      return A.Ts < B.Ts;
    if (A.Level != B.Level)
      return A.Level < B.Level;
    return A.Index < B.Index;
  });
  std::vector<Event> Sorted;
  Sorted.reserve(T.Events.size());
  for (const Key &K : Keys)
    Sorted.push_back(std::move(T.Events[K.Index]));
  T.Events = std::move(Sorted);
  uint64_t Sum = 0;
  for (const auto &KV : Dropped)
    Sum += KV.second;
  T.Process.Dropped = std::max(T.Process.Dropped, Sum);
  T.Process.EndNs = ToNs(Last);
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
