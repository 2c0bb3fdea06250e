//===- sonde/detail/Records.h - Writing one record of each kind -*- C++ -*-===//
//
// The inline writers of the ring's records that more than one probe shares:
// the args of a site (CtxPush/CtxPop), regions on the thread's shadow stack
// (open, close, discard) and instants (mark). Each reserves, fills and
// publishes one record (Ring.h); none allocates or blocks.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_RECORDS_H
#define SONDE_DETAIL_RECORDS_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Clock.h"
#include "Compiler.h"
#include "Ring.h"
#include "Values.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sonde {
namespace rt {
namespace detail {

/// Writes a context record of site `Id` at `Tsc` in at most `Max` bytes:
/// `Count` values, which `WriteValues(W)` writes in order. Shared by
/// pushArgs and libsonde's openArgsOut (type-erased args).
template <class F>
SONDE_ALWAYS_INLINE void
writeContextPush(ThreadState *T, uint32_t Id, uint64_t Tsc, uint32_t Max,
                 uint8_t Count, F &&WriteValues) noexcept {
  char *P = reserve(T, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  WriteValues(W);
  uint32_t Size = align8(W.position() - P);
  putHeader(P, static_cast<uint16_t>(Size), RecType::CtxPush, Count, Id);
  put64(P + 8, Tsc);
  commit(T, Size);
}

/// Writes a context record: the values of a site's args, in order.
template <class... Ts>
SONDE_NODEBUG void pushArgs(ThreadState *T, uint32_t Id, uint64_t Tsc,
                            const Ts &...Vs) noexcept {
  constexpr uint32_t Max = align8(16 + sumMaxBytes<Ts...>());
  static_assert(Max < 65536, "args too large for one record");
  writeContextPush(T, Id, Tsc, Max, static_cast<uint8_t>(sizeof...(Ts)),
                   [&](ValueWriter &W) SONDE_NODEBUG {
                     (writeValue(W, Vs, Summary::Default), ...);
                   });
}

SONDE_ALWAYS_INLINE void popArgs(ThreadState *T, uint32_t Id,
                                 uint64_t Tsc) noexcept {
  if (char *P = reserve(T, 16)) {
    putHeader(P, 16, RecType::CtxPop, 0, Id);
    put64(P + 8, Tsc);
    commit(T, 16);
  }
}

/// Writes one shadow-stack entry: two 8-byte stores where the fields one by
/// one took three.
SONDE_ALWAYS_INLINE void putOpen(OpenRegion *E, uint32_t Id, bool HasArgs,
                                 uint64_t Start) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  static_assert(offsetof(OpenRegion, HasArgs) == 4 &&
                    offsetof(OpenRegion, Start) == 8,
                "the words below are OpenRegion's layout");
  uint64_t Head = uint64_t(Id) | uint64_t(HasArgs) << 32;
  std::memcpy(E, &Head, 8);
  std::memcpy(reinterpret_cast<char *>(E) + 8, &Start, 8);
#else
  *E = OpenRegion{Id, HasArgs, Start};
#endif
}

/// A region of site `Id` opened deeper than MaxDepth: it is not recorded.
/// Says so once (recorder/Misuse.cpp). Cold, out of line.
SONDE_COLD void openedTooDeep(uint32_t Id) noexcept;

/// closeOpened() found the thread's depth not one past its region's: a
/// region opened inside is still open (a begin() without its end()), or
/// its own region was closed already (by the end() of a begin() around
/// it). Closes the ones inside, recorded as ending at `End`, and says so
/// once; false when the region at depth `D` is closed already (nothing
/// more to record). Cold, out of line (recorder/Misuse.cpp).
SONDE_COLD bool closeLeftOpen(ThreadState *T, uint32_t D, uint32_t Id,
                              uint64_t End) noexcept;

/// Opens a region on the thread's shadow stack (what a crash reports as
/// unfinished, and where the nesting level comes from). Returns the depth
/// it opened at, for closeOpened.
SONDE_ALWAYS_INLINE uint32_t open(ThreadState *T, uint32_t Id, uint64_t Start,
                                  bool HasArgs = false) noexcept {
  uint32_t D = T->Depth++;
  if (SONDE_LIKELY(D < MaxDepth))
    putOpen(T->Stack + D, Id, HasArgs, Start);
  else
    openedTooDeep(Id);
  return D;
}

/// Whether a region opened now would be on the shadow stack: only such a
/// region pushes its args (a region deeper is not recorded, and its args
/// would never be popped).
SONDE_ALWAYS_INLINE bool roomFor(const ThreadState *T) noexcept {
  return T->Depth < MaxDepth;
}

/// open() with args recorded at entry (a context push of `Vs`), pushed
/// only when roomFor(): a region deeper than the shadow stack is not
/// recorded, and nothing would pop its args. The region has its args
/// exactly when the depth returned is below MaxDepth. With no `Vs`, open().
template <class... Args>
SONDE_ALWAYS_INLINE uint32_t openWithArgs(ThreadState *T, uint32_t Id,
                                          uint64_t Tsc,
                                          const Args &...Vs) noexcept {
  bool HasArgs = false;
  if constexpr (sizeof...(Args) > 0) {
    HasArgs = roomFor(T);
    if (HasArgs)
      pushArgs(T, Id, Tsc, Vs...);
  }
  return open(T, Id, Tsc, HasArgs);
}

/// Closes the innermost region without recording it.
SONDE_ALWAYS_INLINE void discard(ThreadState *T) noexcept {
  uint32_t D = --T->Depth;
  if (SONDE_LIKELY(D < MaxDepth) && SONDE_UNLIKELY(T->Stack[D].HasArgs))
    popArgs(T, T->Stack[D].Site, now());
}

/// The iteration index of a region that is not a loop iteration: it is
/// recorded as a Region record, not a RegionIt one.
constexpr uint64_t NotIteration = ~uint64_t(0);

/// Closes the region at depth `D`, the innermost, and records it from its
/// shadow stack entry.
SONDE_ALWAYS_INLINE void closeEntry(ThreadState *T, uint32_t D, uint64_t End,
                                    uint64_t Iteration) noexcept {
  T->Depth = D;
  if (SONDE_UNLIKELY(D >= MaxDepth))
    return;
  const OpenRegion &R = T->Stack[D];
  auto Level = static_cast<uint8_t>(levelOf(D));
  if (Iteration == NotIteration) {
    if (char *P = reserve(T, 24)) {
      putHeader(P, 24, RecType::Region, Level, R.Site);
      put64(P + 8, End);
      put64(P + 16, R.Start);
      commit(T, 24);
    }
  } else if (char *P = reserve(T, 32)) {
    putHeader(P, 32, RecType::RegionIt, Level, R.Site);
    put64(P + 8, End);
    put64(P + 16, R.Start);
    put64(P + 24, Iteration);
    commit(T, 32);
  }
  if (SONDE_UNLIKELY(R.HasArgs))
    popArgs(T, R.Site, End);
}

/// Closes the innermost region and records it.
SONDE_ALWAYS_INLINE void close(ThreadState *T, uint64_t End,
                               uint64_t Iteration = NotIteration) noexcept {
  closeEntry(T, T->Depth - 1, End, Iteration);
}

/// Closes the region its owner opened at depth `D` (of site `Id`, or 0 when
/// the owner does not keep it), recorded as close() records it: after
/// closeLeftOpen() closed what was left open inside, and not at all when
/// the region was closed already. For owners that close through the shadow
/// stack (inserted code), one compare more than close().
SONDE_ALWAYS_INLINE void closeAt(ThreadState *T, uint32_t D, uint32_t Id,
                                 uint64_t End,
                                 uint64_t Iteration = NotIteration) noexcept {
  if (SONDE_UNLIKELY(T->Depth != D + 1) && !closeLeftOpen(T, D, Id, End))
    return;
  closeEntry(T, D, End, Iteration);
}

/// Closes the region opened at depth `D` (open's result) of site `Id` at
/// `Start`, innermost by RAII, and records it: the record close() writes,
/// from what its owner kept in registers instead of from the shadow stack
/// (no load of the entry or its args flag). Args are the owner's to pop,
/// when this returns true; false when the region was closed already.
SONDE_ALWAYS_INLINE bool
closeOpened(ThreadState *T, uint32_t D, uint32_t Id, uint64_t Start,
            uint64_t End, uint64_t Iteration = NotIteration) noexcept {
  // One compare: a region left open inside, or this one closed by an end()
  // around it, is the API misused, and must not go unsaid.
  if (SONDE_UNLIKELY(T->Depth != D + 1) && !closeLeftOpen(T, D, Id, End))
    return false;
  T->Depth = D;
  if (SONDE_UNLIKELY(D >= MaxDepth))
    return true; // not on the stack: close() records nothing either
  auto Level = static_cast<uint8_t>(levelOf(D));
  if (Iteration == NotIteration) {
    if (char *P = reserve(T, 24)) {
      putHeader(P, 24, RecType::Region, Level, Id);
      put64(P + 8, End);
      put64(P + 16, Start);
      commit(T, 24);
    }
  } else if (char *P = reserve(T, 32)) {
    putHeader(P, 32, RecType::RegionIt, Level, Id);
    put64(P + 8, End);
    put64(P + 16, Start);
    put64(P + 24, Iteration);
    commit(T, 32);
  }
  return true;
}

/// Records an instant of site `Id` at `Tsc`; `Which` is an InstantAux.
SONDE_ALWAYS_INLINE void mark(ThreadState *T, uint8_t Which, uint32_t Id,
                              uint64_t Tsc) noexcept {
  if (char *P = reserve(T, 16)) {
    putHeader(P, 16, RecType::Instant, Which, Id | levelBits(T));
    put64(P + 8, Tsc);
    commit(T, 16);
  }
}

} // namespace detail
} // namespace rt
} // namespace sonde

#endif // SONDE_DETAIL_RECORDS_H
