//===- TraceFormat.h - The on-disk trace encoding, writer and reader ------===//
//
// docs/trace-format.md is the normative description; this header is its
// executable half. The writer thread turns the raw ring records of
// sonde/sonde.h into this compact encoding (varints, zigzag deltas), and the
// reader decodes it. Site kinds and flags are written as sonde/site.h
// numbers them; the value tags shared with the ring are asserted below.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_FORMAT_TRACEFORMAT_H
#define SONDE_FORMAT_TRACEFORMAT_H

#include "sonde/sonde.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sonde::format {

/// "SONDETRC", then u16 major, u16 minor, u32 reserved: 16 bytes.
constexpr char Magic[8] = {'S', 'O', 'N', 'D', 'E', 'T', 'R', 'C'};
constexpr uint16_t Major = 1;
/// 1.1: the Process block ends with the boot id. 1.2: Level records give
/// instants and watches their nesting level. 1.3: the Process block ends
/// with the local rank and the world size (each written plus one, 0: not
/// given; see worldField) and the launcher's name. 1.4: a Clock block may
/// end with the clock exchange's result: svarint offset (the reference
/// rank's CLOCK_MONOTONIC minus this process's), varint uncertainty (ns,
/// either way), varint reference rank, str the reference's boot id. 1.5:
/// Alarm records. 1.6: WatchDelta records (an integer watch as the
/// difference from its site's previous integer in the block).
constexpr uint16_t Minor = 6;
/// The minor version whose Clock blocks may end with the clock exchange's
/// result (offset, uncertainty, reference rank, boot id). Bytes after an
/// anchor in an older file are not read as one.
constexpr uint16_t ClockExchangeMinor = 4;
/// The minor version that has WatchDelta records; in an older file type 11
/// is a record of an unknown type.
constexpr uint16_t WatchDeltaMinor = 6;

/// A 1.3 Process block's local rank or world size as written: the value
/// plus one, 0 for one no launcher gave (all ones in memory).
constexpr uint64_t worldField(uint64_t V) {
  return V == ~uint64_t(0) ? 0 : V + 1;
}
constexpr size_t FileHeaderSize = 16;

/// Every block: u8 type, u32 little-endian payload length, payload.
constexpr size_t BlockHeaderSize = 5;

enum class Block : uint8_t {
  Process = 1,    ///< who wrote the file
  Clock = 2,      ///< a (tsc, realtime ns, monotonic ns) anchor
  String = 3,     ///< an interned string: id, bytes
  Site = 4,       ///< a probe site's static facts
  Thread = 5,     ///< a thread: index, tid, name
  Events = 6,     ///< one thread's records
  Dropped = 7,    ///< a thread's running total of dropped records
  Unfinished = 8, ///< a region open when the process ended
  End = 9,        ///< how the process ended
};

/// Record types inside an Events block: the low EvTypeBits bits of the first
/// varint, whose other bits are the site id.
enum class Ev : uint8_t {
  Region = 1,       ///< dt(end), dur, level
  RegionIt = 2,     ///< dt(end), dur, level, iteration
  Instant = 3,      ///< dt
  InstantStart = 4, ///< dt (`mode: instant`, at entry)
  InstantStop = 5,  ///< dt (`mode: instant`, at exit)
  Watch = 6,        ///< dt, value
  CtxPush = 7,      ///< dt, count, values
  CtxPop = 8,       ///< dt
  /// No dt: the "site" bits are the nesting level of the Instant and Watch
  /// records that follow in the block (0 until the first Level record).
  Level = 9,
  /// dt, value (a Float): a watch with `check: finite` (CheckFinite in
  /// sonde/site.h) saw this NaN or infinite value (1.5). Its nesting level
  /// is the block's, as for Watch.
  Alarm = 10,
  /// dt, svarint delta (1.6): a Watch record whose value is an integer of
  /// the same tag (Int or UInt) as the value of the site's last watch
  /// earlier in the same block, which must be one, plus `delta` (modulo
  /// 2^64). A counter's watch is then 3 bytes instead of 6 or more, and a
  /// block still reads alone: the state starts over with each block.
  WatchDelta = 11,
};

constexpr unsigned EvTypeBits = 4;

/// The deepest nesting level a record can carry (the ring's limit).
constexpr uint32_t MaxLevel = rt::MaxLevel;

/// Value tags on disk (payloads differ from the raw ring encoding).
enum class Val : uint8_t {
  Null = 0,
  False = 1,
  True = 2,
  Int = 3,    ///< zigzag varint
  UInt = 4,   ///< varint
  Float = 5,  ///< 8 bytes, IEEE 754 little-endian
  String = 6, ///< varint length, bytes
  Object = 8, ///< varint count, then (varint string id, value) pairs
  Array = 9,  ///< varint count, values
  Truncated = 10,
};

// The disk keeps the ring's value tags (sonde/site.h, rt::ValueTag) with
// their numbers, but for Key (an object key becomes a string id): a
// renumbering of either enum fails here, not in a trace.
#define SONDE_SAME_TAG(Name)                                                   \
  static_assert(static_cast<uint8_t>(Val::Name) ==                             \
                    static_cast<uint8_t>(rt::ValueTag::Name),                  \
                "Val::" #Name " and rt::ValueTag::" #Name " differ")
SONDE_SAME_TAG(Null);
SONDE_SAME_TAG(False);
SONDE_SAME_TAG(True);
SONDE_SAME_TAG(Int);
SONDE_SAME_TAG(UInt);
SONDE_SAME_TAG(Float);
SONDE_SAME_TAG(String);
SONDE_SAME_TAG(Object);
SONDE_SAME_TAG(Array);
SONDE_SAME_TAG(Truncated);
#undef SONDE_SAME_TAG

/// The disk tag of a ring value tag. EXPECTS: T is not Key (the writer
/// turns keys into string ids).
constexpr Val diskTag(rt::ValueTag T) { return static_cast<Val>(T); }

inline uint64_t zigzag(int64_t V) {
  return (static_cast<uint64_t>(V) << 1) ^ static_cast<uint64_t>(V >> 63);
}
inline int64_t unzigzag(uint64_t V) {
  return static_cast<int64_t>(V >> 1) ^ -static_cast<int64_t>(V & 1);
}

/// Appends a LEB128 varint; returns the new end. At most 10 bytes.
inline char *putVarint(char *P, uint64_t V) {
  if (V < 0x80) { // most deltas and ids: one byte
    *P = static_cast<char>(V);
    return P + 1;
  }
  while (V >= 0x80) {
    *P++ = static_cast<char>(V | 0x80);
    V >>= 7;
  }
  *P++ = static_cast<char>(V);
  return P;
}

/// A bounds-checked cursor over encoded bytes; `ok()` turns false for good
/// at the first read past the end or malformed varint.
class Cursor {
public:
  Cursor(const uint8_t *Begin, const uint8_t *End) : P(Begin), E(End) {}
  bool ok() const { return Ok; }
  bool atEnd() const { return P >= E; }
  const uint8_t *pos() const { return P; }
  size_t left() const { return static_cast<size_t>(E - P); }

  uint8_t byte() {
    if (P >= E)
      return fail();
    return *P++;
  }
  uint64_t varint() {
    if (__builtin_expect(P < E && *P < 0x80, 1)) // most deltas, ids: 1 byte
      return *P++;
    if (E - P >= 2 && P[1] < 0x80) { // a time delta of a few us: 2 bytes
      uint64_t V = (P[0] & 0x7fu) | static_cast<uint64_t>(P[1]) << 7;
      P += 2;
      return V;
    }
    return varintSlow();
  }
  int64_t svarint() { return unzigzag(varint()); }
  double f64() {
    if (left() < 8)
      return fail();
    double D;
    std::memcpy(&D, P, 8);
    P += 8;
    return D;
  }
  /// Returns a view of N bytes, or null.
  const uint8_t *bytes(size_t N) {
    if (left() < N) {
      fail();
      return nullptr;
    }
    const uint8_t *R = P;
    P += N;
    return R;
  }

private:
  __attribute__((noinline)) uint64_t varintSlow() {
    if (E - P >= 10) { // room for the longest: no bounds check per byte
      const uint8_t *Q = P;
      uint64_t V = 0;
      for (unsigned Shift = 0; Shift < 70; Shift += 7) {
        uint8_t B = *Q++;
        V |= static_cast<uint64_t>(B & 0x7f) << Shift;
        if (!(B & 0x80)) {
          P = Q;
          return V;
        }
      }
      return fail();
    }
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      if (P >= E)
        return fail();
      uint8_t B = *P++;
      V |= static_cast<uint64_t>(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return fail();
  }
  uint8_t fail() {
    Ok = false;
    P = E;
    return 0;
  }
  const uint8_t *P;
  const uint8_t *E;
  bool Ok = true;
};

} // namespace sonde::format

#endif // SONDE_FORMAT_TRACEFORMAT_H
