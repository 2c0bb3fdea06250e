//===- sonde/detail/Probes.h - The hand-written probe API -------*- C++ -*-===//
//
// What a programmer writes by hand (and what inserted code uses too):
// instants, watches, RAII and begin/end regions, context frames, recorded loop
// iterations, the run-time controls (enable, flush, ...) and the SONDE_REGION,
// SONDE_INSTANT and SONDE_WATCH macros. Include sonde/sonde.h, not this file.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_PROBES_H
#define SONDE_DETAIL_PROBES_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "../site.h"
#include "Clock.h"
#include "Compiler.h"
#include "Records.h"
#include "Ring.h"
#include "StaticSite.h"
#include "Values.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sonde {
namespace rt {
namespace detail {

/// Publishes the watch record of site `Id` at `P` (reserve() gave it) whose
/// structured value ends at `End`: Aux 0, the value follows the time
/// (scalars use putScalarWatch). Shared by watch() and ApiCall's records.
SONDE_ALWAYS_INLINE void commitStructuredWatch(ThreadState *T, char *P,
                                               const char *End, uint32_t Id,
                                               uint64_t Tsc) noexcept {
  uint32_t Size = align8(static_cast<size_t>(End - P));
  putHeader(P, static_cast<uint16_t>(Size), RecType::Watch, 0,
            Id | levelBits(T));
  put64(P + 8, Tsc);
  commit(T, Size);
}

} // namespace detail
} // namespace rt

/// Records a point in time.
SONDE_ALWAYS_INLINE void instant(const Site &S) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *T = rt::detail::thread();
  if (char *P = rt::detail::reserve(T, 16)) {
    rt::detail::putHeader(P, 16, rt::RecType::Instant, rt::PlainInstant,
                          Id | rt::detail::levelBits(T));
    rt::detail::put64(P + 8, now());
    rt::detail::commit(T, 16);
  }
}

namespace rt {
namespace detail {

/// Records the structured watch of site `S`, at most `Max` bytes, whose
/// value `WriteValue(W)` writes. Shared by watch() and libsonde's
/// watchErased (the inserted watches of types it does not write itself).
template <class F>
SONDE_ALWAYS_INLINE void writeStructuredWatch(const Site &S, uint32_t Max,
                                              F &&WriteValue) noexcept {
  uint32_t Id = activeId(S);
  if (!Id)
    return;
  ThreadState *Th = thread();
  uint64_t Tsc = now();
  char *P = reserve(Th, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  WriteValue(W);
  commitStructuredWatch(Th, P, W.position(), Id, Tsc);
}

} // namespace detail
} // namespace rt

/// Records a value of any type with a `ValueTraits` specialization.
template <class T>
SONDE_NODEBUG inline void watch(const Site &S, const T &V) noexcept {
  constexpr uint32_t Max = rt::detail::align8(16 + rt::detail::maxBytes<T>());
  rt::detail::writeStructuredWatch(S, Max, [&](ValueWriter &W) {
    rt::detail::writeValue(W, V, summaryOf(S));
  });
}

namespace rt {
namespace detail {

/// A scalar as a scalar watch records it: its tag, and 8 bytes (a double's
/// bits, an integer widened to 64 bits, none for a bool).
template <class T>
SONDE_ALWAYS_INLINE uint64_t scalarBits(T V, ValueTag &Tag) noexcept {
  uint64_t Bits = 0;
  if constexpr (std::is_floating_point<T>::value) {
    double D = static_cast<double>(V);
    std::memcpy(&Bits, &D, 8);
    Tag = ValueTag::Float;
  } else if constexpr (std::is_same<T, bool>::value) {
    Tag = V ? ValueTag::True : ValueTag::False;
  } else if constexpr (std::is_signed<T>::value) {
    Bits = static_cast<uint64_t>(static_cast<int64_t>(V));
    Tag = ValueTag::Int;
  } else {
    Bits = static_cast<uint64_t>(V);
    Tag = ValueTag::UInt;
  }
  return Bits;
}

/// Writes and publishes the 24-byte record of a scalar watch at `P`, which
/// reserve() gave: its tag in Aux, its 8 bytes after the time.
SONDE_ALWAYS_INLINE void putScalarWatch(ThreadState *T, char *P, uint32_t Id,
                                        ValueTag Tag, uint64_t Bits) noexcept {
  putHeader(P, 24, RecType::Watch,
            static_cast<uint8_t>(ScalarWatch | static_cast<int>(Tag)),
            Id | levelBits(T));
  put64(P + 8, now());
  put64(P + 16, Bits);
  commit(T, 24);
}

/// Whether `check: finite` on `S` alarms for a Float watch of `Bits`: one
/// compare of the bits (all ones in the exponent: NaN or infinite), the
/// site's flag only then.
SONDE_ALWAYS_INLINE bool finiteCheckFails(const Site &S,
                                          uint64_t Bits) noexcept {
  return SONDE_UNLIKELY((Bits & ExponentBits) == ExponentBits) &&
         (S.Flags & CheckFinite);
}

} // namespace detail
} // namespace rt

/// The fast path for the commonest watch: one fixed-size record.
template <class T>
SONDE_ALWAYS_INLINE std::enable_if_t<std::is_arithmetic<T>::value>
watchScalar(const Site &S, T V) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *Th = rt::detail::thread();
  rt::ValueTag Tag;
  uint64_t Bits = rt::detail::scalarBits(V, Tag);
  if (char *P = rt::detail::reserve(Th, 24))
    rt::detail::putScalarWatch(Th, P, Id, Tag, Bits);
  // `check: finite`, on the bits already recorded.
  if constexpr (std::is_floating_point<T>::value)
    if (rt::detail::finiteCheckFails(S, Bits))
      rt::detail::checkFailed(Th, Id, Bits);
}

/// Scalars take the fixed-size path; everything else goes through
/// ValueTraits.
template <class T>
SONDE_ALWAYS_INLINE std::enable_if_t<std::is_arithmetic<T>::value>
watchScalarOr(const Site &S, const T &V) noexcept {
  watchScalar(S, V);
}
template <class T>
inline std::enable_if_t<!std::is_arithmetic<T>::value>
watchScalarOr(const Site &S, const T &V) noexcept {
  watch(S, V);
}

/// An RAII region: opens at construction, closes (and records) at
/// destruction, on every exit path. Optional args are recorded at entry and
/// apply to nested records when the site has `ContextArgs`.
///
/// The region keeps its site, start and depth itself (in registers, when
/// its scope is inlined): its exit writes the record from them and restores
/// the depth with one store, without reading back the shadow stack entry
/// its entry wrote for a crash to report.
class Region {
public:
  SONDE_ALWAYS_INLINE explicit Region(const Site &S) noexcept {
    Id = rt::detail::activeId(S);
    if (!Id)
      return;
    T = rt::detail::thread();
    Start = now();
    Depth = rt::detail::open(T, Id, Start);
  }
  template <class... Args>
  SONDE_NODEBUG Region(const Site &S, const Args &...Vs) noexcept {
    Id = rt::detail::activeId(S);
    if (!Id)
      return;
    T = rt::detail::thread();
    Start = now();
    Depth = rt::detail::openWithArgs(T, Id, Start, Vs...);
    HasArgs = Depth < rt::MaxDepth; // deeper: neither region nor args
  }
  SONDE_ALWAYS_INLINE ~Region() {
    if (!T)
      return;
    uint64_t End = now();
    if (rt::detail::closeOpened(T, Depth, Id, Start, End) &&
        SONDE_UNLIKELY(HasArgs))
      rt::detail::popArgs(T, Id, End);
  }
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;

private:
  rt::ThreadState *T = nullptr;
  uint32_t Id;
  uint32_t Depth = 0;
  uint64_t Start = 0;
  bool HasArgs = false;
};

/// `mode: instant`: a start and a stop instant instead of one region.
class InstantRegion {
public:
  SONDE_NODEBUG explicit InstantRegion(const Site &S) noexcept {
    Id = rt::detail::activeId(S);
    if (Id)
      mark(rt::StartInstant);
  }
  SONDE_NODEBUG ~InstantRegion() {
    if (Id)
      mark(rt::StopInstant);
  }
  InstantRegion(const InstantRegion &) = delete;
  InstantRegion &operator=(const InstantRegion &) = delete;

private:
  SONDE_NODEBUG void mark(uint8_t Which) noexcept {
    rt::ThreadState *T = rt::detail::thread();
    if (char *P = rt::detail::reserve(T, 16)) {
      rt::detail::putHeader(P, 16, rt::RecType::Instant, Which,
                            Id | rt::detail::levelBits(T));
      rt::detail::put64(P + 8, now());
      rt::detail::commit(T, 16);
    }
  }
  uint32_t Id;
};

/// DFTracer's hook style: begin() and end() in the same thread, properly
/// nested with other regions.
struct RegionHandle {
  rt::ThreadState *T = nullptr;
  uint32_t Depth = 0;
};

SONDE_NODEBUG inline RegionHandle begin(const Site &S) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return {};
  rt::ThreadState *T = rt::detail::thread();
  RegionHandle H{T, T->Depth};
  rt::detail::open(T, Id, now());
  return H;
}

/// Closes the region `H` and any region left open inside it.
SONDE_NODEBUG inline void end(RegionHandle &H) noexcept {
  if (!H.T)
    return;
  uint64_t End = now();
  while (H.T->Depth > H.Depth)
    rt::detail::close(H.T, End);
  H.T = nullptr;
}

/// A context frame (`A` in `A > B > x`): while one is alive on a thread,
/// `inFrame(A)` is true there. Records nothing.
class Frame {
public:
  SONDE_ALWAYS_INLINE explicit Frame(const Site &S) noexcept {
    uint32_t St = S.State.load(rt::detail::MemOrder::Relaxed);
    if (SONDE_UNLIKELY(St == 0))
      St = (rt::detail::registerSite(S),
            S.State.load(rt::detail::MemOrder::Relaxed));
    uint32_t Id = St & Site::IdMask;
    if (Id >= rt::MaxFrameSites)
      return;
    Slot = &rt::detail::thread()->Frames[Id];
    ++*Slot;
  }
  SONDE_NODEBUG ~Frame() {
    if (Slot)
      --*Slot;
  }
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;

private:
  uint16_t *Slot = nullptr;
};

/// True while a Frame of site `S` is alive on this thread.
SONDE_ALWAYS_INLINE bool inFrame(const Site &S) noexcept {
  uint32_t Id = S.State.load(rt::detail::MemOrder::Relaxed) & Site::IdMask;
  rt::ThreadState *T = rt::detail::Current;
  return Id && Id < rt::MaxFrameSites && T && T->Frames[Id] != 0;
}

/// `every: N`: true on every Nth call from the same thread (the 1st, the
/// N+1th, ...). `Counter` is a `static thread_local` of the site.
SONDE_ALWAYS_INLINE bool every(uint32_t &Counter, uint32_t N) noexcept {
  uint32_t C = Counter++;
  if (Counter == N)
    Counter = 0;
  return C == 0;
}

/// A loop whose iterations are recorded: the rewriter declares one before
/// the loop statement, and an Iteration at the top of the loop body.
class Loop {
public:
  SONDE_NODEBUG explicit Loop(const Site &S) noexcept : S(S) {}
  const Site &S;
  uint64_t Next = 0; ///< the index the next iteration gets
};

/// One iteration of a Loop: `<name>.block` with its index.
class Iteration {
public:
  SONDE_ALWAYS_INLINE explicit Iteration(Loop &L) noexcept : Index(L.Next++) {
    Id = rt::detail::activeId(L.S);
    if (!Id)
      return;
    T = rt::detail::thread();
    Start = now();
    Depth = rt::detail::open(T, Id, Start);
  }
  SONDE_ALWAYS_INLINE ~Iteration() {
    if (T) // as Region's: from what the entry kept
      rt::detail::closeOpened(T, Depth, Id, Start, now(), Index);
  }
  Iteration(const Iteration &) = delete;
  Iteration &operator=(const Iteration &) = delete;

private:
  rt::ThreadState *T = nullptr;
  uint32_t Id;
  uint32_t Depth = 0;
  uint64_t Start = 0;
  uint64_t Index;
};

//===----------------------------------------------------------------------===//
// Control (slow; any thread)
//===----------------------------------------------------------------------===//

/// Turns on or off every site whose category is `Category` or below it
/// (`compute` covers `compute.forward`), or all with "all". Overrides the
/// compiled-in default; SONDE_ENABLE / SONDE_DISABLE apply at start.
void enable(const char *Category) noexcept;
void disable(const char *Category) noexcept;
/// Forces one probe on or off by its event name (or `category/name`).
void setProbeEnabled(const char *Name, bool On) noexcept;
/// Writes everything recorded so far to the trace file and returns.
void flush() noexcept;
/// The trace file of this process ("" before the first event).
const char *traceFile() noexcept;
/// Names the calling thread in the trace.
void setThreadName(const char *Name) noexcept;

} // namespace sonde

//===----------------------------------------------------------------------===//
// Macros for hand-written probes
//===----------------------------------------------------------------------===//

#define SONDE_CONCAT_(A, B) A##B
#define SONDE_CONCAT(A, B) SONDE_CONCAT_(A, B)
#define SONDE_UNIQUE(Name) SONDE_CONCAT(Name, __LINE__)

/// A region from here to the end of the enclosing scope.
#define SONDE_REGION(Category, Name)                                           \
  static ::sonde::Site SONDE_UNIQUE(sonde_site_)(::sonde::SiteKind::Region,    \
                                                 Category, Name, __FILE__,     \
                                                 __LINE__, __func__);          \
  ::sonde::Region SONDE_UNIQUE(sonde_region_)(SONDE_UNIQUE(sonde_site_))

/// An instant, now.
#define SONDE_INSTANT(Category, Name)                                          \
  do {                                                                         \
    static ::sonde::Site SondeSite(::sonde::SiteKind::Instant, Category, Name, \
                                   __FILE__, __LINE__, __func__);              \
    ::sonde::instant(SondeSite);                                               \
  } while (0)

/// The current value of `Expr`, recorded as `Name`.
#define SONDE_WATCH(Name, Expr)                                                \
  do {                                                                         \
    static ::sonde::Site SondeSite(::sonde::SiteKind::Watch, "user", Name,     \
                                   __FILE__, __LINE__, __func__);              \
    ::sonde::watchScalarOr(SondeSite, (Expr));                                 \
  } while (0)

#endif // SONDE_DETAIL_PROBES_H
