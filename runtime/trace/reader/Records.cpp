//===- Records.cpp - Decoding the records of Events blocks ----------------===//
//
// One thread's records of an Events block: regions, instants, watches
// with their values, and the context pushes and pops that give each record
// the args in force. Every record is checked against the sites the file
// declared; a record that cannot be trusted stops its block, said once.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>
#include <iterator>

namespace sonde::trace::detail {

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
      CtxEntry Entry{Site, (T.Sites[Site].Flags & ContextArgs) != 0, {}};
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

} // namespace sonde::trace::detail
