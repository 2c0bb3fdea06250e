//===- sonde/detail/Ring.h - The per-thread ring and its records ----------===//
//
// The raw record layout (host byte order) and the per-thread ring a probe
// writes it into: one producer, the owning thread, and one consumer, libsonde's
// writer (runtime/recorder/), which re-encodes the records for the file. Here
// are the inline halves of reserving and publishing a record; the slow paths
// (a thread's first record, a site's registration, a full ring) are out of line
// in libsonde. Bump the ABI token when ThreadState or a record layout changes.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_RING_H
#define SONDE_DETAIL_RING_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "../site.h"
#include "Atomic.h"
#include "Compiler.h"
#include "StaticSite.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

/// The ABI token of this header's ring layout (see attachThread).
extern "C" const char sonde_abi_v3;

namespace sonde {
namespace rt {

/// Record types in the ring. The writer turns them into the compact file
/// encoding described in docs/trace-format.md.
enum class RecType : uint8_t {
  Pad = 0,      ///< filler up to the end of the ring
  Region = 1,   ///< header, end tsc, start tsc; Aux = nesting level
  RegionIt = 2, ///< as Region, then a u64 iteration index
  Instant = 3,  ///< header, tsc; Aux = an InstantAux
  Watch = 4,    ///< header, tsc, then a raw value (Aux 0), or Aux =
                ///< ScalarWatch | ValueTag and an 8-byte scalar
  CtxPush = 5,  ///< header, tsc, Aux = value count, raw values
  CtxPop = 6,   ///< header, tsc
  /// header, tsc, the 8 bytes of the double that failed a watch's
  /// `check: finite` (sonde/site.h CheckFinite); Aux 0
  Alarm = 7,
};

/// The Aux of an Instant record: which instant it is.
enum InstantAux : uint8_t {
  PlainInstant = 0,
  StartInstant = 1, ///< `mode: instant`, at entry
  StopInstant = 2,  ///< `mode: instant`, at exit
};

/// In the Aux of a Watch record: the value is a scalar, whose ValueTag is
/// in the low bits of Aux and whose 8 bytes follow the time.
constexpr uint8_t ScalarWatch = 0x80;
static_assert((unsigned(ValueTag::Truncated) & ScalarWatch) == 0,
              "every value tag fits below the scalar bit");

/// Every record starts with this, and every record size is a multiple of 8
/// so that a Pad header always fits at the end of the ring.
struct RecHeader {
  uint16_t Size; ///< bytes, header included
  RecType Type;
  uint8_t Aux;
  /// The dense site id; on Instant and Watch records, the top bits above
  /// SiteIdBits carry the record's nesting level (see levelBits).
  uint32_t Site;
};
static_assert(sizeof(RecHeader) == 8, "record header is one word");

/// Dense site ids fit in this many bits (the registry gives out fewer).
constexpr unsigned SiteIdBits = 24;
constexpr uint32_t SiteIdMask = (1u << SiteIdBits) - 1;
/// The deepest nesting level a record carries: regions keep it in Aux,
/// instants and watches in the bits of RecHeader::Site above SiteIdBits.
constexpr uint32_t MaxLevel = 0xffu;
static_assert(MaxLevel == (~0u >> SiteIdBits), "a level fills the top bits");

constexpr uint32_t MaxDepth = 128;       ///< regions tracked per thread
constexpr uint32_t MaxFrameSites = 8192; ///< context frames tracked by id

struct OpenRegion {
  uint32_t Site;
  uint32_t HasArgs;
  uint64_t Start;
};

/// Per-thread state. One thread (the owner) writes everything above
/// `Consumed`; the writer thread writes `Consumed` only.
struct alignas(64) ThreadState {
  // --- Written by the owning thread only. ---------------------------------
  /// Bytes written and made visible to the writer: the producer's position.
  detail::Atomic<uint64_t> Published{0};
  uint64_t Limit = 0; ///< Published may grow to this without a slow path
  char *Data = nullptr;
  uint64_t Mask = 0;                   ///< ring size - 1 (a power of two)
  uint32_t Depth = 0;                  ///< open regions (may exceed MaxDepth)
  uint32_t Index = 0;                  ///< the thread's number in this process
  detail::Atomic<uint64_t> Dropped{0}; ///< records lost to a full ring
  OpenRegion *Stack = nullptr;         ///< MaxDepth entries
  uint16_t *Frames = nullptr;          ///< MaxFrameSites activation counts

  // --- Written by the writer thread only. ---------------------------------
  alignas(64) detail::Atomic<uint64_t> Consumed{0};
};

namespace detail {

/// The calling thread's state, or null before its first event. Initial-exec
/// TLS: one `mov %fs:` in the executable and in libraries loaded at start.
extern __thread ThreadState *Current __attribute__((tls_model("initial-exec")));

/// Slow paths, out of line in libsonde.
///
/// The ring layout is versioned: inline code passes the version's token to
/// attachThread, so a program compiled against another sonde.h fails to
/// link ("undefined reference to sonde_abi_v3") instead of misreading the
/// rings. Bump the version when ThreadState or a record layout changes.
ThreadState *attachThread(const char &AbiToken) noexcept;
uint32_t registerSite(const Site &S) noexcept;
char *reserveSlow(ThreadState *T, uint32_t Bytes) noexcept;
/// The exponent of an IEEE 754 double: all ones for NaN and the infinities.
constexpr uint64_t ExponentBits = 0x7ff0000000000000ull;
/// A watch with `check: finite` saw the double `Bits`: records an alarm and
/// applies SONDE_ON_CHECK (recorder/Check.cpp). Out of line: never on the
/// path of a finite value.
void checkFailed(ThreadState *T, uint32_t Id, uint64_t Bits) noexcept;

/// The site's dense id if it records now, else 0. Registers it on first use.
SONDE_ALWAYS_INLINE uint32_t activeId(const Site &S) noexcept {
  uint32_t St = S.State.load(rt::detail::MemOrder::Relaxed);
  if (SONDE_LIKELY(St & Site::OnBit)) {
    uint32_t Id = St & Site::IdMask;
    SONDE_ASSUME(Id != 0); // ids start at 1: spares callers a test
    return Id;
  }
  if (St != 0)
    return 0; // registered and off
  return registerSite(S);
}

SONDE_ALWAYS_INLINE ThreadState *thread() noexcept {
  ThreadState *T = Current;
  if (SONDE_UNLIKELY(!T))
    T = attachThread(sonde_abi_v3);
  return T;
}

/// reserve() without its slow path: null when the ring has no room for
/// `Bytes` now (the slow path then decides: wait, or drop and count).
SONDE_ALWAYS_INLINE char *tryReserve(ThreadState *T, uint32_t Bytes) noexcept {
  // Only this thread writes Published: a relaxed load reads its own store.
  uint64_t Pos = T->Published.load(rt::detail::MemOrder::Relaxed);
  if (SONDE_LIKELY(Pos + Bytes <= T->Limit)) {
    char *P = T->Data + (Pos & T->Mask);
    SONDE_ASSUME(P != nullptr); // only the slow path returns null
#if defined(__GNUC__) && !defined(SONDE_NO_PREFETCH)
    // The writer thread last held the lines ahead of us (it read them on
    // the previous lap): ask for them now, so the ownership transfer
    // overlaps with the next records instead of stalling a store later.
    // Not wrapped at the ring's end: a prefetch never faults, the last KiB
    // before the end asks for lines past it, for nothing; wrapping cost
    // every record two more instructions (2 % of a region).
    __builtin_prefetch(P + 1024, 1, 3);
#endif
    return P;
  }
  return nullptr;
}

/// Reserves `Bytes` (a multiple of 8) in the ring, or returns null when the
/// record must be dropped. Pair with commit().
SONDE_ALWAYS_INLINE char *reserve(ThreadState *T, uint32_t Bytes) noexcept {
  if (char *P = tryReserve(T, Bytes))
    return P;
  return reserveSlow(T, Bytes);
}

/// Publishes a reserved record to the writer thread.
SONDE_ALWAYS_INLINE void commit(ThreadState *T, uint32_t Bytes) noexcept {
  // Release: the record's bytes are visible before the writer sees them.
  T->Published.store(T->Published.load(rt::detail::MemOrder::Relaxed) + Bytes,
                     rt::detail::MemOrder::Release);
}

SONDE_ALWAYS_INLINE void putHeader(char *P, uint16_t Size, RecType Type,
                                   uint8_t Aux, uint32_t Site) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Two 4-byte stores: the first a constant on most records, the second
  // the site. Field by field, a header whose Aux is not a constant (a
  // region's level) took four stores; one 8-byte word cost the watch, whose
  // site is not a constant (its level), two more instructions.
  static_assert(offsetof(RecHeader, Type) == 2 &&
                    offsetof(RecHeader, Aux) == 3 &&
                    offsetof(RecHeader, Site) == 4,
                "the words below are RecHeader's layout");
  uint32_t Low = uint32_t(Size) | uint32_t(static_cast<uint8_t>(Type)) << 16 |
                 uint32_t(Aux) << 24;
  std::memcpy(P, &Low, 4);
  std::memcpy(P + 4, &Site, 4);
#else
  RecHeader H{Size, Type, Aux, Site};
  std::memcpy(P, &H, sizeof H);
#endif
}

SONDE_ALWAYS_INLINE void put64(char *P, uint64_t V) noexcept {
  std::memcpy(P, &V, sizeof V);
}

/// The nesting level a record carries for `Depth` open regions.
SONDE_ALWAYS_INLINE uint32_t levelOf(uint32_t Depth) noexcept {
  return Depth < MaxLevel ? Depth : MaxLevel;
}

/// The thread's nesting level (its open regions) in the header bits of an
/// Instant or Watch record: with it the reader puts the record inside or
/// before a region that starts on the same clock tick, in program order.
/// One load from the line `reserve` just read; no store.
SONDE_ALWAYS_INLINE uint32_t levelBits(const ThreadState *T) noexcept {
  return levelOf(T->Depth) << SiteIdBits;
}

SONDE_NODEBUG constexpr uint32_t align8(size_t N) {
  return static_cast<uint32_t>((N + 7) & ~size_t(7));
}

} // namespace detail
} // namespace rt
} // namespace sonde

#endif // SONDE_DETAIL_RING_H
