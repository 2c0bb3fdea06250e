//===- sonde/detail/Inserted.h - What only inserted code calls --*- C++ -*-===//
//
// What sonde-rewrite and the plugin insert beyond the hand-written API
// (written by the engine's owner, rewriter/; header-only): regions guarded by
// a run-time condition (context frames, `when`, `every`) that can also close
// early (`!A, !!B` ranges), exit hooks (`#exit`, `#error`), the pass-through of
// `#value`, instants and watches that carry captures. Same hot-path rules as
// the rest of sonde.h. The calls of `apis:` are in ApiCall.h.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_INSERTED_H
#define SONDE_DETAIL_INSERTED_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "../site.h"
#include "Clock.h"
#include "Compiler.h"
#include "Iterate.h"
#include "Probes.h"
#include "Records.h"
#include "Ring.h"
#include "StaticSite.h"
#include "Values.h"
#include "WatchTrampoline.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <type_traits>
#include <utility>

namespace sonde {

// Compile cost. Inserted code puts a watch on every local of every function
// an instrument-all spec matches: tens of thousands of sites in one file.
// Forcing the whole record writer into each of them (as the hand-written API
// does) cost g++ 5 ms per site, at -O0 as at -O2, some 30 plain statements
// (docs/reliability.md, "The cost of instrumented code"). So the code at a
// site is one call: the writers are out of line, whatever the number of
// sites. Those that most sites call (the region's opener and closer, the
// watches of integers, floating values, bools and pointers: WrittenAs) are
// compiled once, in libsonde; a translation unit that compiled its own
// copies paid about 120 M instructions of g++ -O2 for the region pair
// alone. Only the writers of other types are templates here, one instance
// per written type. The call is unconditional: an inlined on/off test made
// every site a branch of its own, and the optimizers' work grows with
// branches (1.5x g++'s and 1.8x clang's -O2 time of the stress file). An
// off site pays the call and a load; an on site one call more than the
// hand-written API (bench/inserted-bench measures both).

/// The writers instantiated here: never inlined, and hidden, so that a call
/// from a shared library (-fPIC) is direct, not through its PLT; every
/// library has its own copy.
#if defined(__GNUC__)
#define SONDE_OUT_OF_LINE __attribute__((noinline, visibility("hidden")))
#else
#define SONDE_OUT_OF_LINE
#endif

/// The descriptors of one function's inserted sites: one static object per
/// function, constant-initialized from one string literal (the fields of
/// every site, TableHeader and TableField in sonde/site.h), instead of one
/// `static Site` per site. A `Site` is a constant evaluation of ten
/// arguments and a symbol with six relocations; 42,500 of them were most of
/// clang's -O0 time on the stress file and 3 s of g++'s (docs/reliability.md,
/// "The cost of instrumented code"). libsonde decodes the text into `Site`s
/// on the table's first use (rt::detail::tableSite); each of them still
/// registers on its own first hit, so the trace is the same.
class SiteTable {
public:
  constexpr explicit SiteTable(const char *Text) noexcept : Text(Text) {}
  SiteTable(const SiteTable &) = delete;
  SiteTable &operator=(const SiteTable &) = delete;

  /// Site `I` of the table (I < the count the text starts with).
  const Site &operator[](uint32_t I) const noexcept;

  const char *const Text; ///< the encoded descriptors (a string literal)
  /// The decoded sites, null until the first use; written once (by
  /// libsonde, recorder/SiteTable.cpp), read through sites(). A plain
  /// pointer with atomic builtins: its one publisher swaps it in with a
  /// compare-and-swap (recorder/SiteTable.cpp), which rt::detail::Atomic
  /// does not offer, and the table's constant initialization is evaluated
  /// once per instrumented function, which std::atomic's nested constexpr
  /// constructors made measurably slower (docs/reliability.md, "The cost of
  /// instrumented code").
  mutable const Site *Sites = nullptr;

  /// The decoded sites, or null (acquire: what the publisher wrote).
  SONDE_NODEBUG const Site *sites() const noexcept {
    return __atomic_load_n(&Sites, __ATOMIC_ACQUIRE);
  }
};

namespace rt {
namespace detail {

/// Decodes `T` on its first use (any thread; one decoding wins) and returns
/// its site `I`. Out of line in libsonde (recorder/SiteTable.cpp); when
/// memory runs out, a site that never records.
const Site &tableSite(const SiteTable &T, uint32_t I) noexcept;

} // namespace detail
} // namespace rt

SONDE_NODEBUG inline const Site &
SiteTable::operator[](uint32_t I) const noexcept {
  const Site *S = sites();
  if (SONDE_UNLIKELY(!S))
    return rt::detail::tableSite(*this, I);
  return S[I];
}

namespace rt {
namespace detail {

/// The type an inserted watch of a `T` is written through. Types whose
/// records are the same bytes share one: every signed integer is written as
/// an int64_t, every unsigned one as a uint64_t, every floating type as a
/// double (watchScalar's own conversions), and every object pointer whose
/// traits are sonde's own as an address. The out-of-line writers are
/// instantiated per written type, and each instance is a whole record
/// writer for the optimizer: sharing them took 40 % of g++'s -O2 cost of an
/// instrument-all spec on leveldb's version_set.cc (docs/reliability.md,
/// "The cost of instrumented code").
template <class U, class = void> struct WrittenAsOf {
  using type = U;
};
template <class U>
struct WrittenAsOf<U, std::enable_if_t<std::is_floating_point<U>::value>> {
  using type = double;
};
template <class U>
struct WrittenAsOf<U, std::enable_if_t<std::is_integral<U>::value &&
                                       !std::is_same<U, bool>::value>> {
  using type = std::conditional_t<std::is_signed<U>::value, int64_t, uint64_t>;
};
/// Only behind watchable<T>(): the traits of a recordable pointer are
/// complete, as is_base_of needs.
template <class P>
struct WrittenAsOf<
    P *,
    std::enable_if_t<std::is_object<P>::value &&
                     std::is_base_of<AddressTraits, ValueTraits<P *>>::value>> {
  using type = const volatile void *;
};
template <class T>
using WrittenAs = typename WrittenAsOf<std::remove_cv_t<T>>::type;

/// watch() of the value at `P`, written by `Write` in at most `Max` bytes
/// (maxBytes): in libsonde (recorder/InsertedWatches.cpp), so that the
/// record around a structured value (a tensor's, a container's) is not
/// compiled again for each type in each instrumented translation unit.
void watchErased(const Site &S, const void *P, ErasedWriter Write,
                 uint32_t Max) noexcept;

/// The watch of a value libsonde's shared writers do not take.
template <class T>
SONDE_NODEBUG void watchErasedOf(const Site &S, const T &V) noexcept {
  constexpr size_t Max = align8(16 + maxBytes<T>());
  static_assert(Max < 65536, "value too large for one record");
  watchErased(S, &V, &writeErased<T>, uint32_t(Max));
}

/// What the out-of-line watches below record: an arithmetic value by the
/// scalar watch, any other through its erased writer in libsonde.
template <class T>
SONDE_ALWAYS_INLINE void watchInserted(const Site &S, const T &V) noexcept {
  if constexpr (std::is_arithmetic<T>::value)
    watchScalar(S, V);
  else
    watchErasedOf(S, V);
}

/// The watch of an inserted site, out of line: one instance per written
/// type (WrittenAs).
template <class T>
SONDE_NODEBUG SONDE_OUT_OF_LINE void watchOut(const Site &S,
                                              const T &V) noexcept {
  watchInserted(S, V);
}

/// How watchOutAt takes a value of type `T`: a scalar by value (in a
/// register, so that at -O2 the watched variable need not live in memory
/// across the call), anything else by reference.
template <class T>
using WatchArg = std::conditional_t<std::is_scalar<T>::value,
                                    std::remove_cv_t<T>, const T &>;

/// The watch of site `I` of table `Tb`, out of line: one instance per value
/// type. The table's look-up is here, not at the site.
template <class T>
SONDE_NODEBUG SONDE_OUT_OF_LINE void watchOutAt(const SiteTable &Tb, uint32_t I,
                                                WatchArg<T> V) noexcept {
  watchInserted(Tb[I], V);
}

/// The watch of site `I` of `Tb` for the written types most watches share
/// (every integer, floating value, bool and object pointer with sonde's own
/// traits: WrittenAs). In libsonde (recorder/InsertedWatches.cpp), not
/// instantiated in every instrumented translation unit: each instance was a
/// whole record writer for the optimizer, compiled again in each of them.
void watchSharedAt(const SiteTable &Tb, uint32_t I, int64_t V) noexcept;
void watchSharedAt(const SiteTable &Tb, uint32_t I, uint64_t V) noexcept;
void watchSharedAt(const SiteTable &Tb, uint32_t I, double V) noexcept;
void watchSharedAt(const SiteTable &Tb, uint32_t I, bool V) noexcept;
void watchSharedAt(const SiteTable &Tb, uint32_t I,
                   const volatile void *V) noexcept;

/// Whether watchSharedAt() writes the written type `W`.
template <class W> constexpr bool writtenBySharedWriter() {
  return std::is_same<W, int64_t>::value || std::is_same<W, uint64_t>::value ||
         std::is_same<W, double>::value || std::is_same<W, bool>::value ||
         std::is_same<W, const volatile void *>::value;
}

/// What the openers below answer for a site that opened no region (off, or
/// sonde disabled): the depth it opened at otherwise.
constexpr uint32_t NotOpened = ~uint32_t(0);

/// Opens the region of site `I` of `Tb`: the depth it opened at, or
/// NotOpened. The table's look-up is in the call, not at the site (one
/// branch and one call fewer per instrumented function). In libsonde
/// (recorder/InsertedRegions.cpp), not inline: a definition here was
/// compiled and optimized again in every instrumented translation unit
/// (about 120 M instructions of g++ -O2 each, docs/reliability.md, "The
/// cost of instrumented code").
uint32_t openOutAt(const SiteTable &Tb, uint32_t I) noexcept;

/// Closes the region an opener opened at depth `Depth` on this thread,
/// with what was left open inside it; nothing for NotOpened. One 32-bit
/// word is all a region object keeps: the thread is this one (inserted
/// regions live in a function's frame, and coroutines are not
/// instrumented), and a second word cost g++ a fifth more per region.
void closeOut(uint32_t Depth) noexcept;

/// One arg of an inserted region or iteration, its type erased, so that
/// the context record around the args is written once, in libsonde
/// (openArgsOut), not at every site: an arithmetic value as its written
/// bits (WrittenAs) with one of libsonde's writers, any other value by its
/// address with the writer of its type.
struct ArgSlot;
using ArgWriter = void (*)(ValueWriter &, const ArgSlot &) noexcept;
struct ArgSlot {
  const void *P; ///< the value, when Bits does not hold it
  uint64_t Bits; ///< an arithmetic value, as written
  ArgWriter Write;
};
void writeIntArg(ValueWriter &W, const ArgSlot &A) noexcept;
void writeUIntArg(ValueWriter &W, const ArgSlot &A) noexcept;
void writeFloatArg(ValueWriter &W, const ArgSlot &A) noexcept;
void writeBoolArg(ValueWriter &W, const ArgSlot &A) noexcept;
template <class U>
SONDE_NODEBUG void writeArgAt(ValueWriter &W, const ArgSlot &A) noexcept {
  writeValue(W, *static_cast<const U *>(A.P), Summary::Default);
}
/// The slot of `V`: what its ValueTraits would write.
template <class U> SONDE_NODEBUG ArgSlot argSlot(const U &V) noexcept {
  if constexpr (std::is_arithmetic<U>::value) {
    using W = WrittenAs<U>;
    if constexpr (std::is_same<W, bool>::value) {
      return ArgSlot{nullptr, V ? 1u : 0u, &writeBoolArg};
    } else if constexpr (std::is_same<W, double>::value) {
      double D = static_cast<double>(V);
      uint64_t Bits;
      std::memcpy(&Bits, &D, 8);
      return ArgSlot{nullptr, Bits, &writeFloatArg};
    } else if constexpr (std::is_same<W, int64_t>::value) {
      return ArgSlot{nullptr, static_cast<uint64_t>(static_cast<int64_t>(V)),
                     &writeIntArg};
    } else {
      return ArgSlot{nullptr, static_cast<uint64_t>(V), &writeUIntArg};
    }
  } else {
    return ArgSlot{&V, 0, &writeArgAt<U>};
  }
}

/// Opens the region of site `S` with the args in `Args` (`N` of them, at
/// most `Max` bytes of record with its head): the depth it opened at, or
/// NotOpened; what openWithArgs records. In libsonde
/// (recorder/InsertedRegions.cpp): inline or instantiated per list of arg
/// types, the context record's writer was compiled at every site with args.
uint32_t openArgsOut(const Site &S, const ArgSlot *Args, uint32_t N,
                     uint32_t Max) noexcept;
/// Closes an iteration that openArgsOut opened at `Depth`: closeOut with
/// the iteration's index.
void closeIterationOut(uint32_t Depth, uint64_t Index) noexcept;

/// openArgsOut() of `Vs`.
template <class... Args>
SONDE_ALWAYS_INLINE uint32_t openOut(const Site &S,
                                     const Args &...Vs) noexcept {
  if constexpr (sizeof...(Args) == 0) {
    return openArgsOut(S, nullptr, 0, 0);
  } else {
    constexpr size_t Max = align8(16 + sumMaxBytes<Args...>());
    static_assert(Max < 65536, "args too large for one record");
    const ArgSlot Slots[] = {argSlot(Vs)...};
    return openArgsOut(S, Slots, sizeof...(Args), uint32_t(Max));
  }
}

} // namespace detail
} // namespace rt

/// Watches `V` if its type is recordable; else does nothing.
template <class T>
SONDE_NODEBUG inline void watchAny(const Site &S, const T &V) noexcept {
  if constexpr (watchable<T>())
    rt::detail::watchOut<rt::detail::WrittenAs<T>>(S, V);
}

namespace rt {
namespace detail {

#if SONDE_WATCH_TRAMPOLINE
/// A scalar watch through sonde_watch_trampoline (WatchTrampoline.h): an
/// asm that steps over the red zone, pushes the table, the packed index and
/// tag, and the value's bytes, and calls through the GOT (no PLT stub, whose
/// lazy binding would change r11). It changes no register the caller keeps
/// (g++ takes every x86 asm to change the flags); "memory" orders it with
/// the code around it as a call is ordered.
SONDE_ALWAYS_INLINE void watchByTrampoline(const SiteTable &Tb, uint32_t I,
                                           ValueTag Tag,
                                           uint64_t Bits) noexcept {
  asm volatile(
      "lea -%c[zone](%%rsp), %%rsp\n\t"
      "pushq %[table]\n\t"
      "pushq %[packed]\n\t"
      "pushq %[bits]\n\t"
      "call *sonde_watch_trampoline@GOTPCREL(%%rip)\n\t"
      "lea %c[pop](%%rsp), %%rsp"
      :
      : [table] "r"(&Tb),
        [packed] "re"(static_cast<uint64_t>(I) << SONDE_TRAMPOLINE_TAG_BITS |
                      static_cast<uint8_t>(Tag)),
        [bits] "r"(Bits), [zone] "i"(SONDE_TRAMPOLINE_RED_ZONE),
        [pop] "i"(SONDE_TRAMPOLINE_RED_ZONE + SONDE_TRAMPOLINE_PUSHED)
      : "memory");
}
#endif

/// The scalar watch of site `I` of `Tb` with a value of written type `W`:
/// the asm of watchByTrampoline under g++, else a call of watchSharedAt.
template <class W>
SONDE_NODEBUG inline void watchScalarAt(const SiteTable &Tb, uint32_t I,
                                        W V) noexcept {
#if SONDE_WATCH_TRAMPOLINE
  rt::ValueTag Tag;
  uint64_t Bits = scalarBits(V, Tag);
  watchByTrampoline(Tb, I, Tag, Bits);
#else
  watchSharedAt(Tb, I, V);
#endif
}

} // namespace detail
} // namespace rt

/// The watches the engine inserts for a value of a standard arithmetic type
/// (rewriter/selectors/Emit.cpp, watchWriterFor): one non-template function
/// per written type, the value by value. Naming the writer in the inserted
/// text spares the compiler a template argument deduction and an instance
/// look-up at every site: 10 % of what 1,200 scalar watches add to g++'s
/// -O2 work, 12 % at -O0, 7 % of clang's -O2 (docs/reliability.md, "The
/// engine names the writer"). Plain inline, not always-inline: at -O0 one
/// out-of-line copy serves every site, where a copy forced into each cost
/// g++ half as much again. Each records exactly what watchAt records for
/// the same value: the conversion to the written type is the one WrittenAs
/// and scalarBits make, and the value is read once, at the call, as watchAt
/// reads it once.
SONDE_NODEBUG inline void watchIntAt(const SiteTable &Tb, uint32_t I,
                                     int64_t V) noexcept {
  rt::detail::watchScalarAt(Tb, I, V);
}
SONDE_NODEBUG inline void watchUIntAt(const SiteTable &Tb, uint32_t I,
                                      uint64_t V) noexcept {
  rt::detail::watchScalarAt(Tb, I, V);
}
SONDE_NODEBUG inline void watchFloatAt(const SiteTable &Tb, uint32_t I,
                                       double V) noexcept {
  rt::detail::watchScalarAt(Tb, I, V);
}
SONDE_NODEBUG inline void watchBoolAt(const SiteTable &Tb, uint32_t I,
                                      bool V) noexcept {
  rt::detail::watchScalarAt(Tb, I, V);
}

/// Watches `V` as site `I` of `Tb` if its type is recordable; else does
/// nothing. What an inserted watch of any other type is (and of a type the
/// engine cannot name: a template's dependent one, plain `char`): one call,
/// the table and a constant; for a scalar under g++, the asm of
/// watchByTrampoline.
template <class T>
SONDE_NODEBUG inline void watchAt(const SiteTable &Tb, uint32_t I,
                                  const T &V) noexcept {
  if constexpr (watchable<T>()) {
    using Written = rt::detail::WrittenAs<T>;
    if constexpr (std::is_arithmetic<std::remove_cv_t<T>>::value)
      rt::detail::watchScalarAt(Tb, I, static_cast<Written>(V));
    else if constexpr (rt::detail::writtenBySharedWriter<Written>())
      rt::detail::watchSharedAt(Tb, I, static_cast<Written>(V));
    else
      rt::detail::watchOutAt<Written>(Tb, I, V);
  }
}

/// The region inserted code opens (a function's, a call site's): what
/// sonde::Region records, with its writers out of line (see above).
class InsertedRegion {
public:
  /// The region of site `I` of `Tb`: what inserted code opens.
  SONDE_NODEBUG InsertedRegion(const SiteTable &Tb, uint32_t I) noexcept
      : Depth(rt::detail::openOutAt(Tb, I)) {}
  /// A region with ride-alongs: its site, and the values it records.
  template <class... Args>
  SONDE_NODEBUG InsertedRegion(const Site &S, const Args &...Vs) noexcept
      : Depth(rt::detail::openOut(S, Vs...)) {}
  SONDE_NODEBUG ~InsertedRegion() { rt::detail::closeOut(Depth); }
  InsertedRegion(const InsertedRegion &) = delete;
  InsertedRegion &operator=(const InsertedRegion &) = delete;

private:
  /// The depth it opened at (what is left open inside is closed with it,
  /// closeAt), or NotOpened.
  uint32_t Depth;
};

/// A region that records only when `On`, with optional args (recorded at
/// entry, as Region does). Honours `mode: instant` through the site's flags.
/// `close()` ends it early (the `!!B` of a range) when it is the innermost
/// open region; otherwise it ends at scope exit.
class CondRegion {
public:
  template <class... Args>
  SONDE_ALWAYS_INLINE CondRegion(bool On, const Site &S,
                                 const Args &...Vs) noexcept {
    if (!On)
      return;
    uint32_t I = rt::detail::activeId(S);
    if (!I)
      return;
    T = rt::detail::thread();
    Id = I;
    Depth = T->Depth;
    uint64_t Tsc = now();
    // Instants carry their args at any depth; a region deeper than the
    // shadow stack is not recorded, nor are its args.
    bool IsInstant = S.Flags & InstantMode;
    if constexpr (sizeof...(Args) > 0) {
      if (IsInstant || rt::detail::roomFor(T)) {
        rt::detail::pushArgs(T, Id, Tsc, Vs...);
        HasArgs = true;
      }
    }
    if (IsInstant) {
      Instant = true;
      rt::detail::mark(T, rt::StartInstant, Id, Tsc);
      return;
    }
    rt::detail::open(T, Id, Tsc, HasArgs);
  }
  SONDE_ALWAYS_INLINE ~CondRegion() { end(); }
  /// Ends the region now if nothing opened after it is still open.
  SONDE_ALWAYS_INLINE void close() noexcept {
    if (T && (Instant || T->Depth == Depth + 1))
      end();
  }
  CondRegion(const CondRegion &) = delete;
  CondRegion &operator=(const CondRegion &) = delete;

private:
  SONDE_ALWAYS_INLINE void end() noexcept {
    if (!T)
      return;
    uint64_t Tsc = now();
    if (Instant) {
      rt::detail::mark(T, rt::StopInstant, Id, Tsc);
      if (HasArgs)
        rt::detail::popArgs(T, Id, Tsc);
    } else {
      rt::detail::closeAt(T, Depth, Id, Tsc);
    }
    T = nullptr;
  }
  rt::ThreadState *T = nullptr;
  uint32_t Id = 0;
  uint32_t Depth = 0;
  bool HasArgs = false;
  bool Instant = false;
};

/// One iteration of a Loop that records only when `On`, with optional args.
/// Its writers are out of line (openArgsOut): what a site keeps is the
/// depth, as InsertedRegion's.
class CondIteration {
public:
  template <class... Args>
  SONDE_ALWAYS_INLINE CondIteration(bool On, Loop &L,
                                    const Args &...Vs) noexcept
      : Index(L.Next++) {
    if (!On)
      return;
    Depth = rt::detail::openOut(L.S, Vs...);
  }
  SONDE_ALWAYS_INLINE ~CondIteration() {
    if (Depth != rt::detail::NotOpened)
      rt::detail::closeIterationOut(Depth, Index);
  }
  CondIteration(const CondIteration &) = delete;
  CondIteration &operator=(const CondIteration &) = delete;

private:
  uint64_t Index;
  uint32_t Depth = rt::detail::NotOpened;
};

/// An instant whose args (captures, `args:`) ride along with it.
template <class... Args>
SONDE_NODEBUG inline void instantArgs(const Site &S,
                                      const Args &...Vs) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *T = rt::detail::thread();
  uint64_t Tsc = now();
  rt::detail::pushArgs(T, Id, Tsc, Vs...);
  rt::detail::mark(T, rt::PlainInstant, Id, Tsc);
  rt::detail::popArgs(T, Id, Tsc);
}

/// A watch whose args (captures, `args:`) ride along with it.
template <class T, class... Args>
SONDE_NODEBUG inline void watchArgs(const Site &S, const T &V,
                                    const Args &...Vs) noexcept {
  if constexpr (watchable<T>()) {
    uint32_t Id = rt::detail::activeId(S);
    if (!Id)
      return;
    rt::ThreadState *Th = rt::detail::thread();
    uint64_t Tsc = now();
    rt::detail::pushArgs(Th, Id, Tsc, Vs...);
    watchScalarOr(S, V);
    rt::detail::popArgs(Th, Id, now());
  }
}

/// Runs `Fn` when the scope exits, however it exits (`#exit`).
template <class F> class OnExit {
public:
  SONDE_NODEBUG explicit OnExit(F Fn) noexcept : Fn(std::move(Fn)) {}
  SONDE_NODEBUG ~OnExit() { Fn(); }
  OnExit(const OnExit &) = delete;
  OnExit &operator=(const OnExit &) = delete;

private:
  F Fn;
};

/// Runs `Fn` when the scope is left by an exception (`#error`).
template <class F> class OnUnwind {
public:
  SONDE_NODEBUG explicit OnUnwind(F Fn) noexcept
      : Fn(std::move(Fn)), Count(std::uncaught_exceptions()) {}
  SONDE_NODEBUG ~OnUnwind() {
    if (std::uncaught_exceptions() > Count)
      Fn();
  }
  OnUnwind(const OnUnwind &) = delete;
  OnUnwind &operator=(const OnUnwind &) = delete;

private:
  F Fn;
  int Count;
};

/// `#value` on a return of a scalar, or of a prvalue of a class the
/// language may copy anyway (trivially copyable, trivial destructor): the
/// engine never passes a class whose copy or move the program would not
/// make (passRef takes glvalues; other prvalues are skipped).
template <class T> SONDE_ALWAYS_INLINE T passValue(const Site &S, T V) {
  watchAny(S, V);
  return V;
}

/// `#value` with a run-time guard (`when`, `every`, a context frame).
template <class T>
SONDE_ALWAYS_INLINE T passValueIf(bool On, const Site &S, T V) {
  if (On)
    watchAny(S, V);
  return V;
}

/// `#value` on a function returning a reference: the same object comes out.
template <class T>
SONDE_ALWAYS_INLINE T &&passRef(const Site &S, T &&V) noexcept {
  watchAny(S, V);
  return static_cast<T &&>(V);
}

/// `#value` through a reference with a run-time guard.
template <class T>
SONDE_ALWAYS_INLINE T &&passRefIf(bool On, const Site &S, T &&V) noexcept {
  if (On)
    watchAny(S, V);
  return static_cast<T &&>(V);
}

/// A range-for whose body is recorded separately (a CondIteration with
/// args or a guard): records only `<name>.iter`, the fetch, per iteration,
/// and only when `On`.
template <class R>
SONDE_NODEBUG Iterated<R> iterateFetch(bool On, const Site &Fetch,
                                       R &&Range) noexcept {
  return Iterated<R>(On, Fetch, nullptr, std::forward<R>(Range));
}

/// iterateFetch() over a prvalue range made in place (see iterateMade).
template <class F>
Iterated<decltype(std::declval<F &>()())>
iterateFetchMade(bool On, const Site &Fetch, F &&Make) {
  return Iterated<decltype(std::declval<F &>()())>(
      MadeRange{}, On, Fetch, nullptr, static_cast<F &&>(Make));
}

/// A call site nested in a larger expression: a region around exactly the
/// call, whose result (prvalue or reference) passes through unchanged.
template <class F>
SONDE_ALWAYS_INLINE decltype(auto) call(bool On, const Site &S, F &&Fn) {
  CondRegion R(On, S);
  return static_cast<F &&>(Fn)();
}

} // namespace sonde

#endif // SONDE_DETAIL_INSERTED_H
