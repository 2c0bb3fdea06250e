//===- Encoder.cpp - Ring records into the trace file encoding ------------===//
//
// A pass of the writer hands each ring to drainRing, which re-encodes the
// records published since the last pass (the raw layout of
// sonde/detail/Ring.h, values in sonde/detail/Values.h's encoding) into
// Events blocks of the compact file encoding (runtime/format/TraceFormat.h,
// docs/trace-format.md): varints, time deltas, string ids for object keys.
// It also writes what those records refer to before them: new sites,
// object keys, the thread, and its count of dropped records. Touched only
// by the holder of the drain lock; allocates nothing.
//
//===----------------------------------------------------------------------===//

#include "WriterState.h"

#include <algorithm>
#include <cstring>

namespace sonde::rt::detail {

using format::Block;
using format::Ev;
using format::putVarint;
using format::Val;

namespace {

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
  ++W.BlockNo;
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

/// A scalar's disk encoding: its tag, then nothing (null, booleans), a
/// zigzag varint (Int), a varint (UInt) or the 8 bytes of a double. A tag
/// that is no scalar (a corrupt record) becomes Truncated.
char *putScalar(char *P, ValueTag Tag, uint64_t Bits) {
  switch (Tag) {
  case ValueTag::Null:
  case ValueTag::False:
  case ValueTag::True:
    *P++ = static_cast<char>(format::diskTag(Tag));
    return P;
  case ValueTag::Int:
    *P++ = static_cast<char>(Val::Int);
    return putVarint(P, format::zigzag(static_cast<int64_t>(Bits)));
  case ValueTag::UInt:
    *P++ = static_cast<char>(Val::UInt);
    return putVarint(P, Bits);
  case ValueTag::Float:
    *P++ = static_cast<char>(Val::Float);
    std::memcpy(P, &Bits, 8);
    return P + 8;
  case ValueTag::String:
  case ValueTag::Key:
  case ValueTag::Object:
  case ValueTag::Array:
  case ValueTag::Truncated:
    break;
  }
  *P++ = static_cast<char>(Val::Truncated);
  return P;
}

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
    return putScalar(P, Tag, 0);
  case ValueTag::Int:
  case ValueTag::UInt:
  case ValueTag::Float: {
    if (!Need(8))
      break;
    uint64_t Bits;
    std::memcpy(&Bits, In, 8);
    In += 8;
    return putScalar(P, Tag, Bits);
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

SONDE_ALWAYS_INLINE char *putEvent(char *P, uint32_t Site, Ev Type) {
  return putVarint(P, (static_cast<uint64_t>(Site) << format::EvTypeBits) |
                          static_cast<uint64_t>(Type));
}

/// The head of an Instant or Watch record, whose ring header keeps the
/// nesting level above the site id: a Level record first when the level
/// differs from the block's (most records repeat their predecessor's).
SONDE_ALWAYS_INLINE char *putPointEvent(uint32_t &BlockLevel, char *P,
                                        uint32_t HeaderSite, Ev Type) {
  uint32_t Level = HeaderSite >> SiteIdBits;
  if (Level != BlockLevel) {
    P = putEvent(P, Level, Ev::Level);
    BlockLevel = Level;
  }
  return putEvent(P, HeaderSite & SiteIdMask, Type);
}

SONDE_ALWAYS_INLINE char *putDelta(uint64_t &LastTsc, char *P, uint64_t Tsc) {
  P = putVarint(P, format::zigzag(static_cast<int64_t>(Tsc - LastTsc)));
  LastTsc = Tsc;
  return P;
}

/// The bytes of a scalar watch in the ring: header, time, the 8 bytes.
constexpr uint32_t ScalarWatchBytes = sizeof(RecHeader) + 16;

/// Whether the raw record with header `H` at `At`, below the published
/// position `Pub`, is a whole scalar watch (Aux has ScalarWatch: the tag in
/// its low bits, 8 bytes at 16): the commonest record, which drainRing
/// takes in runs (encodeScalarRun).
SONDE_ALWAYS_INLINE bool inScalarRun(const RecHeader &H, uint64_t At,
                                     uint64_t Pub) {
  return H.Type == RecType::Watch && (H.Aux & ScalarWatch) &&
         H.Size == ScalarWatchBytes && H.Size <= Pub - At;
}

/// What encoding a scalar watch reads and changes of the WriterState, held
/// apart so that a run of them keeps it in registers: every byte stored
/// through the output's `char *` may alias the WriterState, so a watch
/// encoded against it reloads its fields after each store. The writer then
/// spent more per record than the producer (bench/Throughput.cpp: 16.3 to
/// 17.0 ns of its CPU a record against the producer's 13.5; 9.7 to 12.3 ns
/// with runs).
struct ScalarState {
  uint64_t LastTsc;
  uint32_t BlockLevel;
  uint64_t BlockNo;
  IntSlot *Ints;

  explicit ScalarState(WriterState &W)
      : LastTsc(W.LastTsc), BlockLevel(W.BlockLevel), BlockNo(W.BlockNo),
        Ints(W.Ints) {}
  void storeTo(WriterState &W) const {
    W.LastTsc = LastTsc;
    W.BlockLevel = BlockLevel;
  }
};

/// A scalar watch: a Level record first when its level differs from the
/// block's; an integer as the difference from the site's last watch in this
/// block when that was an integer of the same tag the slot still holds (a
/// counter, a step, a size: 3 bytes), else whole, which the next one of the
/// site can then count from.
SONDE_ALWAYS_INLINE char *encodeScalarWatch(ScalarState &S, const RecHeader &H,
                                            const char *Rec, char *P) {
  uint64_t Tsc, Bits;
  std::memcpy(&Tsc, Rec + 8, 8);
  std::memcpy(&Bits, Rec + 16, 8);
  auto Tag = static_cast<ValueTag>(H.Aux & ~ScalarWatch);
  uint32_t Site = H.Site & SiteIdMask;
  IntSlot &Slot = S.Ints[Site % IntSlots];
  bool Delta = false;
  uint64_t Prev = Slot.Bits;
  if (Tag == ValueTag::Int || Tag == ValueTag::UInt) {
    Delta = Slot.Site == Site && Slot.Block == S.BlockNo && Slot.Tag == Tag;
    Slot = IntSlot{Site, Tag, S.BlockNo, Bits};
  } else if (Slot.Site == Site) {
    Slot.Site = 0; // its last watch is no integer now
  }
  P = putPointEvent(S.BlockLevel, P, H.Site,
                    Delta ? Ev::WatchDelta : Ev::Watch);
  P = putDelta(S.LastTsc, P, Tsc);
  if (Delta)
    return putVarint(P, format::zigzag(static_cast<int64_t>(Bits - Prev)));
  return putScalar(P, Tag, Bits);
}

/// The run of scalar watches at `Pos` in `T`'s ring, up to `Stop`, a
/// record of another kind, or the output position passing `Limit` (the
/// open block's room, less a record's worst case), with the writer's state
/// in locals. Advances `Pos` and `Records`; returns the new output position.
char *encodeScalarRun(WriterState &W, const ThreadState &T, uint64_t &Pos,
                      uint64_t Stop, uint64_t Pub, char *P, const char *Limit,
                      uint64_t &Records) {
  const char *const Data = T.Data;
  const uint64_t Mask = T.Mask;
  ScalarState S(W);
  uint64_t At = Pos, N = 0;
  while (At < Stop && P <= Limit) {
    const char *Rec = Data + (At & Mask);
    RecHeader H;
    std::memcpy(&H, Rec, sizeof H);
    if (!inScalarRun(H, At, Pub))
      break;
    P = encodeScalarWatch(S, H, Rec, P);
    At += ScalarWatchBytes;
    ++N;
  }
  S.storeTo(W);
  Pos = At;
  Records += N;
  return P;
}

/// Encodes one raw record (any but Pad); returns the new output position.
/// The one encoding of every record type: drainRing calls it for each.
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
    P = putDelta(W.LastTsc, P, Tsc);
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
    P = putPointEvent(W.BlockLevel, P, H.Site,
                      H.Aux == StartInstant  ? Ev::InstantStart
                      : H.Aux == StopInstant ? Ev::InstantStop
                                             : Ev::Instant);
    return putDelta(W.LastTsc, P, Tsc);
  case RecType::Watch: {
    if (H.Aux & ScalarWatch) { // the commonest: tag in Aux, 8 bytes at 16
      ScalarState S(W);
      P = encodeScalarWatch(S, H, Rec, P);
      S.storeTo(W);
      return P;
    }
    uint32_t Site = H.Site & SiteIdMask;
    IntSlot &Slot = W.Ints[Site % IntSlots];
    // A value of another kind: the reader takes no difference from it
    // (whatever its top-level tag), nor does the writer.
    if (Slot.Site == Site)
      Slot.Site = 0;
    P = putPointEvent(W.BlockLevel, P, H.Site, Ev::Watch);
    P = putDelta(W.LastTsc, P, Tsc);
    const char *In = Rec + 16;
    return encodeValue(W, In, Rec + H.Size, P, Defs);
  }
  case RecType::CtxPush: {
    P = putEvent(P, H.Site, Ev::CtxPush);
    P = putDelta(W.LastTsc, P, Tsc);
    P = putVarint(P, H.Aux);
    const char *In = Rec + 16;
    for (unsigned I = 0; I < H.Aux; ++I)
      P = encodeValue(W, In, Rec + H.Size, P, Defs);
    return P;
  }
  case RecType::CtxPop:
    P = putEvent(P, H.Site, Ev::CtxPop);
    return putDelta(W.LastTsc, P, Tsc);
  case RecType::Alarm: { // the double that failed `check: finite`
    uint64_t Bits;
    std::memcpy(&Bits, Rec + 16, 8);
    P = putPointEvent(W.BlockLevel, P, H.Site, Ev::Alarm);
    P = putDelta(W.LastTsc, P, Tsc);
    return putScalar(P, ValueTag::Float, Bits);
  }
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

} // namespace

void announceThread(WriterState &W, ThreadRecord &R) {
  char *P = beginBlock(W, Block::Thread);
  P = putVarint(P, R.State.Index);
  P = putVarint(P, static_cast<uint64_t>(R.Tid));
  P = putString(P, R.Name, sizeof R.Name);
  endBlock(W, P);
  R.Announced = true;
}

/// Drains one ring up to what it had published when we looked, less `Lag`
/// bytes: the background writer stays off the cache lines the producer is
/// writing right now (chasing it there costs the producer 3x per record).
uint64_t drainRing(WriterState &W, ThreadRecord &R, uint64_t Lag) {
  ThreadState &T = R.State;
  uint64_t Pub = T.Published.load(rt::detail::MemOrder::Acquire);
  uint64_t Pos = T.Consumed.load(rt::detail::MemOrder::Relaxed);
  uint64_t Stop = Pub - Pos > 2 * Lag ? Pub - Lag : Pub;
  // Sites registered before these records were published are visible now.
  writeNewSites(W);
  if (!R.Announced &&
      (Pos != Pub || T.Dropped.load(rt::detail::MemOrder::Relaxed)))
    announceThread(W, R);
  uint32_t NameV = R.NameVersion.load(std::memory_order_acquire);
  if (R.Announced && NameV != R.AnnouncedName) {
    announceThread(W, R);
    R.AnnouncedName = NameV;
  }
  uint64_t Start = Pos;
  char *P = nullptr;
  char *BlockBegin = nullptr; ///< the open block's first record
  uint64_t Records = 0;       ///< encoded, not yet in W.PendingRecords
  const uint64_t Cap = config().MaxBytes;
  while (Pos < Stop) {
    const char *Rec = T.Data + (Pos & T.Mask);
    RecHeader H;
    std::memcpy(&H, Rec, sizeof H);
    // A scalar watch while the open block has room (and no file cap): no
    // value to walk, no key to define, none of the checks below but its
    // size. The commonest record, and a third of the writer's time per
    // record when it took the general path (bench/Throughput.cpp).
    if (inScalarRun(H, Pos, Pub) && !Cap && W.InBlock) {
      size_t BlockAt = static_cast<size_t>(BlockBegin - W.Out);
      const char *Limit =
          W.Out + std::min(OutCapacity - 64, BlockAt + MaxBlockPayload);
      if (P <= Limit) { // the run takes this record at least: it advances
        P = encodeScalarRun(W, T, Pos, Stop, Pub, P, Limit, Records);
        continue;
      }
    }
    if (H.Type == RecType::Pad) {
      // A Pad record keeps its size in Site; a wrong one means corruption:
      // skip the rest.
      if (H.Site < sizeof(RecHeader) || H.Site > Pub - Pos) {
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
        static_cast<size_t>(P - BlockBegin) > MaxBlockPayload) {
      // Opening a block may write Out: the records in it are counted
      // first (a failed write counts them as lost).
      W.PendingRecords += Records;
      Records = 0;
      closeEvents(W, P);
      P = BlockBegin = openEvents(W, R);
    }
    char *Before = P;
    KeyDefs Defs;
    uint64_t TscBefore = W.LastTsc;
    P = encodeRecord(W, H, Rec, P, Defs);
    if (Defs.N) {
      // Keys must be defined before the block that uses them: end the
      // block before this record, define, and encode it again in a new
      // block.
      W.LastTsc = TscBefore;
      W.PendingRecords += Records;
      Records = 0;
      closeEvents(W, Before);
      defineKeys(W, Defs);
      P = BlockBegin = openEvents(W, R);
      P = encodeRecord(W, H, Rec, P, Defs);
      Defs.N = 0;
    }
    ++Records;
    Pos += H.Size;
  }
  W.PendingRecords += Records;
  closeEvents(W, P);
  // Release: the producer reuses the space only after we are done reading.
  T.Consumed.store(Pos, rt::detail::MemOrder::Release);
  uint64_t Dropped =
      T.Dropped.load(rt::detail::MemOrder::Relaxed) + R.CapDropped;
  if (Dropped != R.WrittenDropped) {
    char *Q = beginBlock(W, Block::Dropped);
    Q = putVarint(Q, T.Index);
    Q = putVarint(Q, Dropped);
    endBlock(W, Q);
    R.WrittenDropped = Dropped;
  }
  return Pos - Start;
}

} // namespace sonde::rt::detail
