//===- Records.cpp - Decoding the records of Events blocks ----------------===//
//
// One thread's records of an Events block: regions, instants, watches
// with their values, and the context pushes and pops that give each record
// the args in force. The check (walk 2) validates every record against the
// sites the file declared before it, skipping values; a record that cannot
// be trusted stops its block, said once, and the events walk (walk 3)
// stops there too. Values are decoded in ValueDecode.cpp.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"
#include "Order.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <type_traits>

namespace sonde::trace::detail {

namespace {

/// sonde::ItemsArg as a view: compared by length first, with no strlen
/// each time (a context push's every arg is compared with it).
constexpr std::string_view Items = ItemsArg;

/// The args a record gets from the pushes `Ctx` (one record's context),
/// `Own` the innermost push of its own site (or null): every push that
/// gives args, in order, a later name replacing an earlier one where it
/// was; the item count (sonde::ItemsArg) only from its own push, since
/// nested records processed no items of their own and rates would count
/// them twice.
std::shared_ptr<const Args> mergedArgs(const std::vector<CtxEntry> &Ctx,
                                       const CtxEntry *Own) {
  auto Gives = [Own](const CtxEntry &E) {
    return E.Values && (&E == Own || E.Inherit);
  };
  // When one push alone gives args, and gives them as they are (no name
  // twice, no item count to leave out, or its own), its set is the answer:
  // shared, not copied.
  const CtxEntry *Only = nullptr;
  size_t Giving = 0;
  for (const CtxEntry &E : Ctx)
    if (Gives(E)) {
      ++Giving;
      Only = &E;
    }
  if (Giving == 1 && Only->Distinct && (Only == Own || !Only->HasItems))
    return Only->Values;
  Args Out;
  size_t Most = 0; // no growth while it is made
  for (const CtxEntry &E : Ctx)
    if (Gives(E))
      Most += E.Values->size();
  Out.reserve(Most);
  auto Put = [&Out](const std::pair<std::string, Value> &KV) {
    auto It = std::find_if(Out.begin(), Out.end(),
                           [&](const auto &O) { return O.first == KV.first; });
    if (It != Out.end())
      It->second = KV.second;
    else
      Out.push_back(KV);
  };
  for (const CtxEntry &E : Ctx)
    if (Gives(E) && &E != Own)
      for (const auto &KV : *E.Values)
        if (std::string_view(KV.first) != Items)
          Put(KV);
  if (Own && Own->Values)
    for (const auto &KV : *Own->Values)
      Put(KV);
  return Out.empty() ? nullptr : std::make_shared<const Args>(std::move(Out));
}

} // namespace

std::shared_ptr<const Args> Decoder::argsFor(ThreadDecode &TD,
                                             uint32_t OwnSite) {
  // The innermost push of the record's own site is its own args, whether
  // or not they are context for others.
  CtxEntry *Own = nullptr;
  if (OwnSite)
    for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
      if (It->Site == OwnSite) {
        Own = &*It;
        break;
      }
  uint32_t OwnIndex = Own ? static_cast<uint32_t>(Own - TD.Ctx.data()) : ~0u;
  if (TD.Valid && TD.CachedOwn == OwnIndex)
    return TD.Cached;
  // The set depends on the pushes up to the innermost one that gives args
  // (those above give none), and on Own: when Own is that innermost one,
  // or gives nothing, the set is the same for every record until it is
  // popped, so it is kept with it.
  bool OwnGives = Own && Own->Values;
  CtxEntry *Innermost = nullptr;
  for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
    if (It->Values && (It->Inherit || &*It == Own)) {
      Innermost = &*It;
      break;
    }
  std::shared_ptr<const Args> Set;
  if (!Innermost) {
    Set = nullptr;
  } else if (!OwnGives) {
    if (!Innermost->InsideMade) {
      Innermost->Inside = mergedArgs(TD.Ctx, Own);
      Innermost->InsideMade = true;
    }
    Set = Innermost->Inside;
  } else if (Innermost == Own) {
    if (!Own->OwnMade) {
      Own->OwnSet = mergedArgs(TD.Ctx, Own);
      Own->OwnMade = true;
    }
    Set = Own->OwnSet;
  } else {
    Set = mergedArgs(TD.Ctx, Own);
  }
  TD.Cached = std::move(Set);
  TD.CachedOwn = OwnIndex;
  TD.Valid = true;
  return TD.Cached;
}

const char *Decoder::checkSite(uint64_t Site, Ev Type, uint64_t Before) const {
  if (Site == 0 || Site >= T.Sites.size() || T.Sites[Site].Id != Site ||
      SiteAt[Site] >= Before)
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
  case Ev::WatchDelta:
    return K == SiteKind::Watch || K == SiteKind::State || K == SiteKind::Api
               ? nullptr
               : "a watch record of a site that is not a watch, state or api";
  case Ev::Alarm:
    return K == SiteKind::Watch && (T.Sites[Site].Flags & CheckFinite)
               ? nullptr
               : "an alarm record of a site that is not a checked watch";
  case Ev::CtxPush:
  case Ev::CtxPop:
    return K == SiteKind::Frame ? "a context record of a frame site" : nullptr;
  case Ev::Level:
    break;
  }
  return "a record of an unknown type";
}

void Decoder::noteSiteTypes(uint32_t Id) {
  uint16_t Mask = 0;
  for (unsigned Type = 0; Type < 16; ++Type)
    if (!checkSite(Id, static_cast<Ev>(Type), ~uint64_t(0)))
      Mask |= static_cast<uint16_t>(1u << Type);
  SiteTypes[Id] = Mask;
}

struct Decoder::CheckOnly {};

namespace {
/// Runs `F` when it goes out of scope.
template <class F> struct AtExit {
  F Fn;
  ~AtExit() { Fn(); }
};
template <class F> AtExit<F> atExit(F Fn) { return AtExit<F>{std::move(Fn)}; }
} // namespace

void Decoder::countTime(uint64_t StartTsc, uint64_t EndTsc) {
  int64_t Start = toNs(StartTsc);
  if (Start != bound(Start))
    ++OutOfRange;
  Start = bound(Start);
  if (!AnyEvent || Start < MinStartNs)
    MinStartNs = Start;
  AnyEvent = true;
  if (EndTsc != ~uint64_t(0)) {
    int64_t End = toNs(EndTsc);
    if (End != bound(End))
      ++OutOfRange;
  }
}

void Decoder::notePrevInt(const Cursor &C, uint32_t Site) {
  PrevInt &P = PrevInts[Site];
  Cursor Peek = C;
  auto Tag = static_cast<Val>(Peek.byte());
  uint64_t Raw = Peek.varint();
  if (Peek.ok() && (Tag == Val::Int || Tag == Val::UInt)) {
    P.Block = BlockCount;
    P.Signed = Tag == Val::Int;
    P.Bits = P.Signed ? static_cast<uint64_t>(format::unzigzag(Raw)) : Raw;
  } else {
    P.Block = 0; // a watch of another kind: no delta from it
  }
}

void Decoder::startOneWalk() {
  OneWalk = true;
  AtOutline = {CorruptAt, Corrupt, MoreCorrupt};
}

void Decoder::forgetRecords() {
  Records = 0;
  Threads.clear();
  Extents.clear();
  AnyEvent = false;
  MinStartNs = 0;
  OutOfRange = 0;
  MinTick = ~uint64_t(0);
  MaxTick = 0;
  AnyTick = false;
}

void Decoder::restartCheck() {
  // What the outline found stays; what the walk found it finds again.
  CorruptAt = AtOutline.CorruptAt;
  Corrupt = AtOutline.Corrupt;
  MoreCorrupt = AtOutline.MoreCorrupt;
  StopAt.clear();
  forgetRecords();
}

void Decoder::events(Cursor &C, const EventsBlock &EB, RecordSink *Out) {
  BlockWalk W;
  beginEvents(C, EB, Out, W);
  moreEvents(W, Out, SIZE_MAX);
}

void Decoder::beginEvents(Cursor &C, const EventsBlock &EB, RecordSink *Out,
                          BlockWalk &W) {
  W.Begin = C.pos();
  W.EB = EB;
  W.Done = false;
  WalkingEvents = Out != nullptr;
  if (WalkingEvents && !Extents.empty())
    NextExtent = static_cast<size_t>(
        std::lower_bound(
            Extents.begin(), Extents.end(), W.Begin,
            [](const Extent &E, const uint8_t *P) { return E.At < P; }) -
        Extents.begin());
  const uint64_t BlockAt = EB.Offset - format::BlockHeaderSize;
  // The events walk stops where the check stopped trusting the block (the
  // one walk where it stops trusting it).
  W.Stop = C.pos() + C.left();
  bool Again = !Out && TimesOneByOne; // the check's second walk
  bool Checks = !Out || OneWalk;
  if (Out || Again) {
    auto It = StopAt.find(EB.Offset);
    if (It != StopAt.end())
      W.Stop = W.Begin + (It->second - EB.Offset);
  }
  auto Bad = [&](const std::string &What) {
    W.Done = true;
    if (!Checks || Again)
      return;
    corrupt(EB.Offset, What);
    StopAt[EB.Offset] = EB.Offset;
  };
  uint64_t ThreadV = C.varint();
  W.Tsc = C.varint();
  if (!C.ok())
    return Bad("an events block without its thread and time");
  if (!knownThread(ThreadV, BlockAt))
    return Bad("an events block of thread " + std::to_string(ThreadV) +
               ", which no Thread block announced");
  W.Thread = static_cast<uint32_t>(ThreadV);
  // The level of instants and watches: 0 until a Level record says more.
  W.PointLevel = 0;
  // WatchDelta records (1.6) count from their site's last integer in this
  // block: a new block number starts every site with none.
  W.Deltas = T.VersionMinor >= format::WatchDeltaMinor;
  ++BlockCount;
  if (W.Deltas && PrevInts.size() < T.Sites.size())
    PrevInts.resize(T.Sites.size());
  W.C = C;
}

void Decoder::moreEvents(BlockWalk &W, RecordSink *Out, size_t Budget) {
  if (Out)
    walkBlock(W, Out, Budget);
  else
    walkBlock<CheckOnly>(W, nullptr, Budget);
}

void Decoder::moreEvents(BlockWalk &W, Order *Out, size_t Budget) {
  if (OneWalk)
    walkBlock<Order, true>(W, Out, Budget);
  else
    walkBlock(W, Out, Budget);
}

template <class Sink, bool Checks>
void Decoder::walkBlock(BlockWalk &W, Sink *Out, size_t Budget) {
  // The check (no sink), the events walk and the one walk (both) are one
  // loop, made three times: each copy without the others' branches, and
  // the events walk's sink called directly (Order is final), not through
  // its vtable.
  constexpr bool Check = std::is_same_v<Sink, CheckOnly>;
  static_assert(Checks || !Check);
  if (W.Done)
    return;
  // The walk's state lives in locals, which stay in registers through the
  // loop (a store into a node could alias anything a reference reaches),
  // and goes back into W and the decoder on every way out.
  Cursor C = W.C;
  uint64_t Tsc = W.Tsc;
  uint32_t PointLevel = W.PointLevel;
  uint64_t LastTsc = MaxTsc, Counted = Records, Earliest = MinTick,
           Latest = MaxTick;
  bool Ticked = AnyTick;
  auto Back = atExit([&] {
    W.C = C;
    W.Tsc = Tsc;
    W.PointLevel = PointLevel;
    MaxTsc = LastTsc;
    Records = Counted;
    MinTick = Earliest;
    MaxTick = Latest;
    AnyTick = Ticked;
  });
  const EventsBlock &EB = W.EB;
  const uint8_t *Begin = W.Begin;
  const uint8_t *Stop = W.Stop;
  const uint64_t BlockAt = EB.Offset - format::BlockHeaderSize;
  auto Off = [&](const uint8_t *P) {
    return EB.Offset + static_cast<uint64_t>(P - Begin);
  };
  bool Again = Check && TimesOneByOne; // the check's second walk
  // In the check, a corruption stops the block, and the events walk stops
  // before the same record.
  auto Bad = [&](const uint8_t *At, const std::string &What) {
    W.Done = true;
    if (!Checks || Again)
      return;
    corrupt(Off(At), What);
    StopAt[EB.Offset] = Off(At);
  };
  const uint32_t Thread = W.Thread;
  const bool Deltas = W.Deltas;
  ThreadDecode &TD = Threads[Thread];
  const Args *const NoArgs = &noArgs();
  for (size_t Done = 0;; ++Done) {
    if (C.atEnd() || C.pos() >= Stop) {
      W.Done = true;
      return;
    }
    if (Done == Budget)
      return;
    const uint8_t *At = C.pos();
    uint64_t Head = C.varint();
    auto Type = static_cast<Ev>(Head & 0xf);
    if (C.ok() && Type == Ev::Level) {
      if ((Head >> 4) > format::MaxLevel)
        return Bad(At, "a nesting level of " + std::to_string(Head >> 4));
      PointLevel = static_cast<uint32_t>(Head >> 4);
      continue;
    }
    Tsc += static_cast<uint64_t>(C.svarint());
    if (!C.ok())
      return Bad(At, "a record cut short");
    // The check proved every record before Stop: the events walk does not
    // ask again.
    if constexpr (Checks)
      if (!siteMay(Head >> 4, Type, BlockAt))
        return Bad(At, std::string(checkSite(Head >> 4, Type, BlockAt)) + " (" +
                           siteName(Head >> 4) + ")");
    auto Site = static_cast<uint32_t>(Head >> 4);
    // The check keeps nothing of a record: no event is built.
    EventKind Kind = EventKind::Region;
    Event::Phase Ph = Event::Phase::None;
    bool Alarm = false;
    uint32_t Level = 0;
    uint32_t Order = PointLevels ? PointLevel : NoLevel;
    int64_t Iter = -1;
    Value V;
    uint64_t StartTsc = Tsc, EndTsc = ~uint64_t(0);
    switch (Type) {
    case Ev::Region:
    case Ev::RegionIt: {
      uint64_t Dur = C.varint();
      uint64_t LevelV = C.varint();
      if (Type == Ev::RegionIt)
        Iter = static_cast<int64_t>(C.varint());
      if (!C.ok())
        return Bad(At, "a region record cut short");
      if (LevelV > format::MaxLevel)
        return Bad(At, "a region at nesting level " + std::to_string(LevelV));
      if (Dur > Tsc)
        return Bad(At, "a region that starts before the clock's zero");
      Level = static_cast<uint32_t>(LevelV);
      Order = Level;
      StartTsc = Tsc - Dur;
      EndTsc = Tsc;
      break;
    }
    case Ev::Instant:
    case Ev::InstantStart:
    case Ev::InstantStop:
      Kind = EventKind::Instant;
      Ph = Type == Ev::InstantStart  ? Event::Phase::Start
           : Type == Ev::InstantStop ? Event::Phase::Stop
                                     : Event::Phase::None;
      break;
    case Ev::Alarm:
      Kind = EventKind::Instant;
      Alarm = true;
      if (Check    ? !skipValue(C, BlockAt)
          : Checks ? !checkedValue(C, V, BlockAt, Site)
                   : !decodeValue(C, V))
        return Bad(At, "an alarm whose value cannot be decoded (" +
                           siteName(Site) + ")");
      break;
    case Ev::Watch:
      Kind = EventKind::Watch;
      if (Deltas)
        notePrevInt(C, Site);
      if (Check    ? !skipValue(C, BlockAt)
          : Checks ? !checkedValue(C, V, BlockAt, Site)
                   : !decodeValue(C, V))
        return Bad(At, "a watch whose value cannot be decoded (" +
                           siteName(Site) + ")");
      break;
    case Ev::WatchDelta: {
      if (!Deltas)
        return Bad(At, "a record of unknown type " +
                           std::to_string(static_cast<int>(Type)));
      Kind = EventKind::Watch;
      auto Delta = static_cast<uint64_t>(C.svarint());
      if (!C.ok())
        return Bad(At, "a watch record cut short");
      PrevInt &Prev = PrevInts[Site];
      if (Prev.Block != BlockCount)
        return Bad(At, "an integer watch given as a difference, with no "
                       "integer of its site before it in the block (" +
                           siteName(Site) + ")");
      Prev.Bits += Delta; // modulo 2^64, as the writer took it
      if (Prev.Signed) {
        V.K = Value::Kind::Int;
        V.I = static_cast<int64_t>(Prev.Bits);
      } else {
        V.K = Value::Kind::UInt;
        V.U = Prev.Bits;
      }
      break;
    }
    case Ev::CtxPush: {
      uint64_t N = C.varint();
      const auto &Names = T.Sites[Site].ArgNames;
      Args Values;
      // Room made once (a count beyond what a record can hold is corrupt,
      // and found below: not trusted for the size).
      Values.reserve(static_cast<size_t>(std::min<uint64_t>(N, 16)));
      bool Distinct = true, HasItems = false;
      for (uint64_t I = 0; I < N && C.ok(); ++I) {
        const uint8_t *ValueAt = C.pos();
        if (Checks && !skipValue(C, BlockAt))
          return Bad(At, "context values that cannot be decoded (" +
                             siteName(Site) + ")");
        Value Arg;
        if (Checks) // checked: decode it for the context in force at the end
          C = Cursor(ValueAt, C.pos() + C.left());
        decodeValue(C, Arg);
        std::string Name =
            I < Names.size() ? Names[I] : "arg" + std::to_string(I);
        HasItems |= std::string_view(Name) == Items;
        for (const auto &KV : Values)
          Distinct &= KV.first != Name;
        Values.emplace_back(std::move(Name), std::move(Arg));
      }
      if (!C.ok())
        return Bad(At, "a context record cut short");
      CtxEntry &Entry = TD.Ctx.emplace_back();
      Entry.Site = Site;
      Entry.Inherit = (T.Sites[Site].Flags & ContextArgs) != 0;
      Entry.Distinct = Distinct;
      Entry.HasItems = HasItems;
      if (!Values.empty())
        Entry.Values = std::make_shared<const Args>(std::move(Values));
      TD.Valid = false;
      LastTsc = std::max(LastTsc, Tsc);
      continue;
    }
    case Ev::CtxPop: {
      if (!popContext(TD, Site) && Check && Later)
        noteMissedPop(TD, Site);
      LastTsc = std::max(LastTsc, Tsc);
      continue;
    }
    default:
      return Bad(At, "a record of unknown type " +
                         std::to_string(static_cast<int>(Type)));
    }
    LastTsc = std::max(LastTsc, Tsc);
    if constexpr (Checks)
      ++Counted;
    if constexpr (Check) {
      if (TimesOneByOne) {
        countTime(StartTsc, EndTsc);
      } else { // the extremes only: the clock line is monotone
        Earliest = std::min(Earliest, StartTsc);
        Latest = std::max(Latest, EndTsc == ~uint64_t(0) ? StartTsc : EndTsc);
        Ticked = true;
      }
      continue;
    } else {
      Pending &P = Out->fresh();
      P.OrderLevel = Order;
      P.Seq = Seq++;
      Event &E = P.E;
      E.Kind = Kind;
      E.Ph = Ph; // every field: the node may have held another event
      E.Alarm = Alarm;
      E.Unfinished = false;
      E.Dur = 0;
      E.Site = Site;
      E.Thread = Thread;
      E.Level = Level;
      E.Iter = Iter;
      // A scalar goes over field by field: a copy of the whole Value would
      // read back the two stores that just made it as one load, which the CPU
      // cannot forward (a stall that was a sixth of the events walk). Only a
      // value that holds a string or a structure needs the move.
      if (!Value::holdsShared(V.K) && !Value::holdsShared(E.V.K)) {
        E.V.K = V.K;
        E.V.U = V.U;
      } else {
        E.V = std::move(V);
      }
      // No context in force (most threads, most of the time): no args;
      // none asked of a site that names none of its own.
      std::shared_ptr<const Args> A =
          TD.Ctx.empty() || !argsAskedOf(Site)
              ? nullptr
              : argsFor(TD, Kind == EventKind::Region ? Site : 0);
      int64_t StartNs = toNs(StartTsc);
      E.Ts = bound(StartNs);
      if constexpr (Checks) { // as countTime(), on what is converted anyway
        OutOfRange += StartNs != E.Ts;
        if (!AnyEvent || E.Ts < MinStartNs)
          MinStartNs = E.Ts;
        AnyEvent = true;
      }
      if (Kind == EventKind::Region) {
        // The end converted as a point, not the length as a length: rounded
        // apart, Ts + Dur could pass the start of what follows by 1 ns.
        int64_t EndNs = toNs(EndTsc);
        if constexpr (Checks)
          OutOfRange += EndNs != bound(EndNs);
        E.Dur = std::max<int64_t>(0, bound(EndNs) - E.Ts);
      }
      E.A = A ? A.get() : NoArgs;
      if (A || E.Keep) // most events have none, and the node held none
        E.Keep = std::move(A);
      Out->commit();
    }
  }
}

} // namespace sonde::trace::detail
