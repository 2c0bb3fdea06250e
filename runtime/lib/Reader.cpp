//===- Reader.cpp - Decodes .sonde files ----------------------------------===//

#include "sonde/trace.h"

#include "Format.h"

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <fstream>
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
};

/// An event with its raw time, converted once all clock anchors are known.
struct RawEvent {
  Event E;
  uint64_t Tsc;
};

struct Anchor {
  uint64_t Tsc, RealNs;
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
  std::vector<RawEvent> Raw;
  std::vector<Anchor> Anchors;
  std::map<uint32_t, uint64_t> Dropped;
  uint64_t MaxTsc = 0;
  uint64_t EndTsc = 0;

private:
  void events(Cursor &C);
  Args argsFor(const ThreadDecode &TD, uint32_t OwnSite) const;
  void ensureSite(uint32_t Id) {
    if (T.Sites.size() <= Id)
      T.Sites.resize(Id + 1);
  }
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
    V.K = Value::Kind::String;
    V.S = readStr(C);
    return C.ok();
  case Val::Object: {
    V.K = Value::Kind::Object;
    uint64_t N = C.varint();
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      uint32_t Key = static_cast<uint32_t>(C.varint());
      auto It = Strings.find(Key);
      V.Members.emplace_back(It != Strings.end() ? It->second : "?", Value());
      if (!decodeValue(C, V.Members.back().second, Depth + 1))
        return C.ok(); // truncated inside: keep what came before
      if (V.Members.back().second.K == Value::Kind::Truncated)
        return true;
    }
    return C.ok();
  }
  case Val::Array: {
    V.K = Value::Kind::Array;
    uint64_t N = C.varint();
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      V.Items.emplace_back();
      if (!decodeValue(C, V.Items.back(), Depth + 1))
        return C.ok();
      if (V.Items.back().K == Value::Kind::Truncated)
        return true;
    }
    return C.ok();
  }
  case Val::Truncated:
    V.K = Value::Kind::Truncated;
    return true;
  }
  return false;
}

Args Decoder::argsFor(const ThreadDecode &TD, uint32_t OwnSite) const {
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
  // The innermost push of the record's own site is its own args, whether
  // or not they are context for others.
  const CtxEntry *Own = nullptr;
  if (OwnSite)
    for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
      if (It->Site == OwnSite) {
        Own = &*It;
        break;
      }
  for (const CtxEntry &E : TD.Ctx)
    if (E.Inherit && &E != Own)
      Put(E.Values);
  if (Own)
    Put(Own->Values);
  return Out;
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
    if (!C.ok())
      return;
    ensureSite(Site);
    RawEvent R;
    R.E.Site = Site;
    R.E.Thread = Thread;
    R.Tsc = Tsc;
    switch (Type) {
    case Ev::Region:
    case Ev::RegionIt: {
      uint64_t Dur = C.varint();
      R.E.Level = static_cast<uint32_t>(C.varint());
      if (Type == Ev::RegionIt)
        R.E.Iter = static_cast<int64_t>(C.varint());
      if (!C.ok())
        return;
      R.E.Kind = EventKind::Region;
      R.Tsc = Tsc - Dur;
      R.E.Dur = static_cast<int64_t>(Dur); // ticks until finish()
      R.E.A = argsFor(TD, Site);
      break;
    }
    case Ev::Instant:
    case Ev::InstantStart:
    case Ev::InstantStop:
      R.E.Kind = EventKind::Instant;
      R.E.Ph = Type == Ev::InstantStart  ? Event::Phase::Start
               : Type == Ev::InstantStop ? Event::Phase::Stop
                                         : Event::Phase::None;
      R.E.A = argsFor(TD, 0);
      break;
    case Ev::Watch:
      R.E.Kind = EventKind::Watch;
      if (!decodeValue(C, R.E.V))
        return;
      R.E.A = argsFor(TD, 0);
      break;
    case Ev::CtxPush: {
      uint64_t N = C.varint();
      CtxEntry E{Site, (T.Sites[Site].Flags & 4) != 0, {}};
      const auto &Names = T.Sites[Site].ArgNames;
      for (uint64_t I = 0; I < N && C.ok(); ++I) {
        Value V;
        if (!decodeValue(C, V))
          return;
        E.Values.emplace_back(I < Names.size() ? Names[I]
                                               : "arg" + std::to_string(I),
                              std::move(V));
      }
      TD.Ctx.push_back(std::move(E));
      MaxTsc = std::max(MaxTsc, Tsc);
      continue;
    }
    case Ev::CtxPop: {
      for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
        if (It->Site == Site) {
          TD.Ctx.erase(std::next(It).base());
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
    Raw.push_back(std::move(R));
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
    break;
  }
  case Block::Clock: {
    Anchor A;
    A.Tsc = C.varint();
    A.RealNs = C.varint();
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
    if (!C.ok() || Id == 0 || Id > (1u << 24))
      break;
    ensureSite(Id);
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
    if (!C.ok())
      break;
    ensureSite(Site);
    RawEvent R;
    R.E.Kind = EventKind::Region;
    R.E.Unfinished = true;
    R.E.Site = Site;
    R.E.Thread = Thread;
    R.E.Level = Level;
    R.Tsc = Start;
    R.E.Dur = -1; // until the end of the trace, set in finish()
    auto TD = Threads.find(Thread);
    if (TD != Threads.end())
      R.E.A = argsFor(TD->second, Site);
    Raw.push_back(std::move(R));
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
    BaseNs = static_cast<int64_t>(Anchors.front().RealNs);
    const Anchor &L = Anchors.back();
    if (Anchors.size() >= 2 && L.Tsc > BaseTsc)
      Rate = static_cast<double>(static_cast<int64_t>(L.RealNs) - BaseNs) /
             static_cast<double>(L.Tsc - BaseTsc);
  }
  T.NsPerTick = Rate;
  auto ToNs = [&](uint64_t Tsc) {
    return BaseNs + static_cast<int64_t>(std::llround(
                        static_cast<double>(static_cast<int64_t>(Tsc - BaseTsc)) *
                        Rate));
  };
  uint64_t Last = std::max(MaxTsc, EndTsc);
  if (!Anchors.empty())
    Last = std::max(Last, Anchors.back().Tsc);
  T.Events.reserve(Raw.size());
  for (RawEvent &R : Raw) {
    R.E.Ts = ToNs(R.Tsc);
    if (R.E.Kind == EventKind::Region) {
      uint64_t DurTicks = R.E.Dur >= 0 ? static_cast<uint64_t>(R.E.Dur)
                                       : (Last > R.Tsc ? Last - R.Tsc : 0);
      R.E.Dur = static_cast<int64_t>(
          std::llround(static_cast<double>(DurTicks) * Rate));
    }
    T.Events.push_back(std::move(R.E));
  }
  std::stable_sort(T.Events.begin(), T.Events.end(),
                   [](const Event &A, const Event &B) {
                     if (A.Ts != B.Ts)
                       return A.Ts < B.Ts;
                     return A.Level < B.Level;
                   });
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

const Value *Value::get(std::string_view Key) const {
  for (const auto &KV : Members)
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
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

bool readTrace(const std::string &Path, Trace &Out, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = Path + ": cannot open";
    return false;
  }
  std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                             std::istreambuf_iterator<char>());
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
  Decoder D(Out);
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
                  std::vector<std::string> &Files, std::string &Error) {
  for (const std::string &P : Paths) {
    struct stat St;
    if (stat(P.c_str(), &St) != 0) {
      Error = P + ": no such file or directory";
      return false;
    }
    if (!S_ISDIR(St.st_mode)) {
      Files.push_back(P);
      continue;
    }
    std::vector<std::string> Found;
    if (DIR *D = opendir(P.c_str())) {
      while (dirent *E = readdir(D)) {
        std::string N = E->d_name;
        if (N.size() > 6 && N.compare(N.size() - 6, 6, ".sonde") == 0)
          Found.push_back(P + "/" + N);
      }
      closedir(D);
    }
    std::sort(Found.begin(), Found.end());
    if (Found.empty()) {
      Error = P + ": no .sonde files in this directory";
      return false;
    }
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return true;
}

} // namespace sonde::trace
