//===- Blocks.cpp - The outline of a trace file ---------------------------===//
//
// Walk 1 of reading (Decoder.h): what each block but the records gives the
// Trace: the process, clock anchors, strings, sites, threads, drop counts,
// regions still open at the end and the end record; where each was
// defined, so that a record may use only what came before it; where the
// Events blocks are, for the walks that decode them.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>

namespace sonde::trace::detail {

/// The largest local rank or world size a 1.3 Process block holds, as
/// written (the value plus one): the runtime takes none above 2^31 - 1.
constexpr uint64_t MaxWorldField = uint64_t(1) << 31;

std::string readStr(Cursor &C) {
  uint64_t N = C.varint();
  const uint8_t *P = C.bytes(N);
  return P ? std::string(reinterpret_cast<const char *>(P), N) : std::string();
}

const Args &noArgs() {
  static const Args Empty;
  return Empty;
}

void Decoder::corrupt(uint64_t At, const std::string &What) {
  if (Corrupt.empty()) {
    CorruptAt = At;
    Corrupt = "byte " + std::to_string(At) + ": " + What;
    return;
  }
  ++MoreCorrupt;
  if (At < CorruptAt) { // the walks meet corruption out of file order
    CorruptAt = At;
    Corrupt = "byte " + std::to_string(At) + ": " + What;
  }
}

void Decoder::block(Block B, Cursor &C, uint64_t BlockAt) {
  // Offsets in messages are those of the payload's bytes.
  auto Off = [&](const Cursor &Cur) {
    return BlockAt + format::BlockHeaderSize +
           static_cast<uint64_t>(Cur.pos() - Body);
  };
  Body = C.pos();
  switch (B) {
  case Block::Process: {
    uint64_t At = Off(C);
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
    if (C.ok() && !C.atEnd()) { // 1.3: local rank, world size, launcher
      uint64_t Local = C.varint(), Size = C.varint();
      P.Launcher = readStr(C);
      if (Local > MaxWorldField || Size > MaxWorldField)
        return corrupt(At, "a local rank or world size beyond 2^31");
      P.LocalRank = static_cast<int64_t>(Local) - 1;
      P.WorldSize = static_cast<int64_t>(Size) - 1;
    }
    if (Start > static_cast<uint64_t>(MaxTimeNs))
      return corrupt(At, "a process start time after the year 2116");
    break;
  }
  case Block::Clock: {
    uint64_t At = Off(C);
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
    T.Anchors.push_back(A);
    if (T.VersionMinor >= format::ClockExchangeMinor && C.ok() &&
        !C.atEnd()) { // the clock exchange's result
      int64_t Offset = C.svarint();
      uint64_t Uncertainty = C.varint(), Ref = C.varint();
      std::string Boot = readStr(C);
      if (!C.ok())
        return corrupt(At, "a clock exchange cut short");
      if (Offset > MaxTimeNs || Offset < -MaxTimeNs ||
          Uncertainty > static_cast<uint64_t>(MaxTimeNs) || Ref > MaxWorldField)
        return corrupt(At, "a clock exchange beyond the trace's time range");
      T.Sync = {true, Offset, static_cast<int64_t>(Uncertainty),
                static_cast<int64_t>(Ref), std::move(Boot)};
    }
    break;
  }
  case Block::String: {
    uint32_t Id = static_cast<uint32_t>(C.varint());
    std::string S = readStr(C);
    if (C.ok()) {
      auto [It, New] = Strings.try_emplace(Id, std::move(S), BlockAt);
      if (!New) // a repeated definition: the last one holds
        It->second.first = std::move(S);
    }
    break;
  }
  case Block::Site: {
    uint64_t At = Off(C);
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
    SiteAt[Id] = BlockAt;
    noteSiteTypes(Id);
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
    uint64_t At = Off(C);
    ThreadInfo TI;
    uint64_t Index = C.varint();
    TI.Index = static_cast<uint32_t>(Index);
    TI.Tid = C.varint();
    TI.Name = readStr(C);
    if (!C.ok() || Index > UINT32_MAX)
      return corrupt(At, "a thread block cut short or of thread " +
                             std::to_string(Index));
    auto It =
        std::find_if(T.Threads.begin(), T.Threads.end(),
                     [&](const ThreadInfo &O) { return O.Index == TI.Index; });
    if (It != T.Threads.end())
      *It = TI; // a rename
    else
      T.Threads.push_back(TI);
    ThreadAt.try_emplace(TI.Index, BlockAt);
    break;
  }
  case Block::Events: // decoded by the later walks (Records.cpp)
    break;
  case Block::Dropped: {
    uint64_t At = Off(C);
    uint64_t Thread = C.varint();
    uint64_t N = C.varint();
    if (!C.ok() || !knownThread(Thread, BlockAt + 1))
      return corrupt(At, "a dropped-records block of an unknown thread");
    Dropped[static_cast<uint32_t>(Thread)] = N;
    break;
  }
  case Block::Unfinished: {
    uint64_t At = Off(C);
    uint64_t ThreadV = C.varint();
    uint64_t SiteV = C.varint();
    uint64_t Start = C.varint();
    uint64_t LevelV = C.varint();
    if (!C.ok() || !knownThread(ThreadV, BlockAt + 1))
      return corrupt(At, "an unfinished region of an unknown thread");
    if (const char *Bad = checkSite(SiteV, Ev::Region, BlockAt + 1))
      return corrupt(At, std::string(Bad) + " (" + siteName(SiteV) + ")");
    if (LevelV > format::MaxLevel)
      return corrupt(At, "an unfinished region at nesting level " +
                             std::to_string(LevelV));
    OpenAtEnd O;
    O.Thread = static_cast<uint32_t>(ThreadV);
    O.Site = static_cast<uint32_t>(SiteV);
    O.Level = static_cast<uint32_t>(LevelV);
    O.StartTsc = Start;
    Open.push_back(std::move(O));
    break;
  }
  case Block::End: {
    T.Process.Ended = true;
    T.Process.How = readStr(C);
    T.Process.Dropped = C.varint();
    if (!T.Anchors.empty())
      EndTsc = T.Anchors.back().Tsc;
    break;
  }
  }
}

} // namespace sonde::trace::detail
