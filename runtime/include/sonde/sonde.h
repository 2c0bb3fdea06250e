//===- sonde/sonde.h - The probe-site API of libsonde -----------*- C++ -*-===//
//
// The only header a probe site needs. Everything here is on the hot path of
// an instrumented program: recording an event is a timestamp read, a few
// stores into a per-thread ring buffer and one release store. No lock, no
// allocation, no formatting, no system call; anything slow (registration,
// the first event of a thread, a full buffer) is out of line in libsonde.
//
// Hand-written use (what DFTracer's decorators and context managers are in
// Python):
//
//   void Net::forward() {
//     SONDE_REGION("compute.forward", "forward");    // RAII: closes on exit
//     ...
//     SONDE_WATCH("loss", Loss);                      // a value, now
//   }
//
// Instrumented code (from sonde-rewrite or the plugin) uses the same types
// with a static site descriptor per probe site, see `sonde::Site`.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_SONDE_H
#define SONDE_SONDE_H

// This header is -included into code nobody here wrote, under that code's
// warning flags: its own warnings (g++'s -Wshadow on constructor parameters,
// found on jsoncpp) are not the user's to fix, and under -Werror they would
// break the build. sonde's own targets define SONDE_HEADER_WARNINGS.
#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

// Instrumented code and this header use C++17 (if constexpr, string_view).
// A project that pins an older standard (jsoncpp sets CMAKE_CXX_STANDARD 11)
// would otherwise get a hundred errors from inside this header.
#if defined(__cplusplus) && __cplusplus < 201703L && !defined(_MSVC_LANG)
#error "sonde: instrumented code needs C++17 or later (-std=c++17)"
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "site.h" // beside this header, as sonde.h is to its users


#if defined(__GNUC__)
#define SONDE_LIKELY(X) __builtin_expect(!!(X), 1)
#define SONDE_UNLIKELY(X) __builtin_expect(!!(X), 0)
#define SONDE_ALWAYS_INLINE inline __attribute__((always_inline))
#define SONDE_NOINLINE __attribute__((noinline))
#define SONDE_ASSUME(X)                                                        \
  do {                                                                         \
    if (!(X))                                                                  \
      __builtin_unreachable();                                                 \
  } while (0)
#else
#define SONDE_LIKELY(X) (X)
#define SONDE_UNLIKELY(X) (X)
#define SONDE_ALWAYS_INLINE inline
#define SONDE_NOINLINE
#define SONDE_ASSUME(X) ((void)0)
#endif

/// The ABI token of this header's ring layout (see attachThread).
extern "C" const char sonde_abi_v3;

namespace sonde {

//===----------------------------------------------------------------------===//
// Static site descriptors
//===----------------------------------------------------------------------===//

// SiteKind, SiteFlags, Summary and the value tags: sonde/site.h.

/// The static facts of one probe site. Instrumentation emits one per site as
/// a function-local `static`, which is constant-initialized (no guard, no
/// constructor at run time); records carry only the site's id.
///
/// All strings must outlive the program (string literals).
struct Site {
  constexpr Site(SiteKind Kind, const char *Category, const char *Name,
                 const char *File, uint32_t Line, const char *Function,
                 uint64_t StableId = 0, uint8_t Flags = 0,
                 const char *Args = "", const char *Type = "") noexcept
      : Kind(Kind), Flags(Flags), Line(Line), Category(Category), Name(Name),
        File(File), Function(Function), Args(Args), Type(Type),
        StableId(StableId) {}
  Site(const Site &) = delete;
  Site &operator=(const Site &) = delete;

  SiteKind Kind;
  uint8_t Flags;
  uint32_t Line;
  const char *Category; ///< `compute.forward`, `compute`, `user.x`
  const char *Name;     ///< the event name
  const char *File;     ///< the original source file
  const char *Function; ///< the qualified name of the enclosing function
  const char *Args;     ///< comma-separated arg names: "epoch,step"
  const char *Type;     ///< the watched type as written, or ""
  uint64_t StableId;    ///< the plan's id (0 for hand-written sites)

  /// Run-time state, written by the registry (any thread, under its lock)
  /// and read by probes with relaxed loads: 0 = not registered yet; else the
  /// dense id in the low bits and `OnBit` when the site records.
  mutable std::atomic<uint32_t> State{0};
  static constexpr uint32_t OnBit = 1u << 31;
  static constexpr uint32_t IdMask = OnBit - 1;
};

/// The summary a watch site asks for (bits 3..5 of its flags).
constexpr Summary summaryOf(const Site &S) noexcept {
  return summaryOfFlags(S.Flags);
}

//===----------------------------------------------------------------------===//
// The raw record layout in the per-thread ring (host byte order)
//===----------------------------------------------------------------------===//

namespace rt {

/// Record types in the ring. The writer turns them into the compact file
/// encoding described in docs/trace-format.md.
enum class RecType : uint8_t {
  Pad = 0,       ///< filler up to the end of the ring
  Region = 1,    ///< header, end tsc, start tsc; Aux = nesting level
  RegionIt = 2,  ///< as Region, then a u64 iteration index
  Instant = 3,   ///< header, tsc; Aux = 0 plain, 1 start, 2 stop
  Watch = 4,     ///< header, tsc, then a raw value (Aux 0), or Aux =
                 ///< 0x80 | ValueTag and an 8-byte scalar
  CtxPush = 5,   ///< header, tsc, Aux = value count, raw values
  CtxPop = 6,    ///< header, tsc
};

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
constexpr uint32_t MaxStringBytes = 256; ///< string values are capped

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
  std::atomic<uint64_t> Published{0};
  uint64_t Limit = 0; ///< Published may grow to this without a slow path
  char *Data = nullptr;
  uint64_t Mask = 0;   ///< ring size - 1 (a power of two)
  uint32_t Depth = 0;  ///< open regions (may exceed MaxDepth)
  uint32_t Index = 0;  ///< the thread's number in this process
  std::atomic<uint64_t> Dropped{0}; ///< records lost to a full ring
  OpenRegion *Stack = nullptr;      ///< MaxDepth entries
  uint16_t *Frames = nullptr;       ///< MaxFrameSites activation counts

  // --- Written by the writer thread only. ---------------------------------
  alignas(64) std::atomic<uint64_t> Consumed{0};
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
/// Nanoseconds from CLOCK_MONOTONIC where there is no cycle counter.
uint64_t clockFallback() noexcept;

/// The site's dense id if it records now, else 0. Registers it on first use.
SONDE_ALWAYS_INLINE uint32_t activeId(const Site &S) noexcept {
  uint32_t St = S.State.load(std::memory_order_relaxed);
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

/// Reserves `Bytes` (a multiple of 8) in the ring, or returns null when the
/// record must be dropped. Pair with commit().
SONDE_ALWAYS_INLINE char *reserve(ThreadState *T, uint32_t Bytes) noexcept {
  // Only this thread writes Published: a relaxed load reads its own store.
  uint64_t Pos = T->Published.load(std::memory_order_relaxed);
  if (SONDE_LIKELY(Pos + Bytes <= T->Limit)) {
    char *P = T->Data + (Pos & T->Mask);
    SONDE_ASSUME(P != nullptr); // only the slow path returns null
#if defined(__GNUC__) && !defined(SONDE_NO_PREFETCH)
    // The writer thread last held the lines ahead of us (it read them on
    // the previous lap): ask for them now, so the ownership transfer
    // overlaps with the next records instead of stalling a store later.
    __builtin_prefetch(T->Data + ((Pos + 1024) & T->Mask), 1, 3);
#endif
    return P;
  }
  return reserveSlow(T, Bytes);
}

/// Publishes a reserved record to the writer thread.
SONDE_ALWAYS_INLINE void commit(ThreadState *T, uint32_t Bytes) noexcept {
  // Release: the record's bytes are visible before the writer sees them.
  T->Published.store(T->Published.load(std::memory_order_relaxed) + Bytes,
                     std::memory_order_release);
}

SONDE_ALWAYS_INLINE void putHeader(char *P, uint16_t Size, RecType Type,
                                   uint8_t Aux, uint32_t Site) noexcept {
  RecHeader H{Size, Type, Aux, Site};
  std::memcpy(P, &H, sizeof H);
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

} // namespace detail
} // namespace rt

//===----------------------------------------------------------------------===//
// The clock
//===----------------------------------------------------------------------===//

/// The raw timestamp: the TSC where there is one. Converted to nanoseconds
/// off the hot path, with anchors the writer records in the trace.
SONDE_ALWAYS_INLINE uint64_t now() noexcept {
#if defined(SONDE_TEST_CLOCK)
  // Tests only (test/programs/ProgramOrder.cpp): the program's records take
  // their time from a function it defines, to force equal or backward
  // times. No library or tool is built with it.
  return SONDE_TEST_CLOCK();
#elif defined(__x86_64__) || defined(__i386__)
  // The builtin, not <x86intrin.h>: that header costs every instrumented
  // translation unit about 0.35 s of compile time.
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  uint64_t V;
  asm volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
#else
  return rt::detail::clockFallback();
#endif
}

//===----------------------------------------------------------------------===//
// Values: watches and args
//===----------------------------------------------------------------------===//

/// Writes one value in the raw encoding into a bounded buffer. Used by
/// `ValueTraits` specializations; every call checks the bound, and a value
/// that does not fit ends with a `Truncated` tag instead of overflowing.
class ValueWriter {
public:
  ValueWriter(char *Begin, char *End) noexcept : Cur(Begin), End(End) {}

  void null() noexcept { tag(rt::ValueTag::Null); }
  void boolean(bool V) noexcept {
    tag(V ? rt::ValueTag::True : rt::ValueTag::False);
  }
  void integer(int64_t V) noexcept { scalar(rt::ValueTag::Int, V); }
  void unsignedInteger(uint64_t V) noexcept { scalar(rt::ValueTag::UInt, V); }
  void floating(double V) noexcept { scalar(rt::ValueTag::Float, V); }
  /// Copies at most rt::MaxStringBytes bytes.
  void string(const char *S, size_t N) noexcept {
    if (N > rt::MaxStringBytes)
      N = rt::MaxStringBytes;
    if (!room(3 + N))
      return;
    *Cur++ = static_cast<char>(rt::ValueTag::String);
    uint16_t Len = static_cast<uint16_t>(N);
    std::memcpy(Cur, &Len, 2);
    std::memcpy(Cur + 2, S, N);
    Cur += 2 + N;
  }
  /// An object of `Count` members; each member is key() then a value.
  void object(uint16_t Count) noexcept { counted(rt::ValueTag::Object, Count); }
  /// `Key` must be a string literal: only the pointer is recorded.
  void key(const char *Key) noexcept {
    scalar(rt::ValueTag::Key, reinterpret_cast<uintptr_t>(Key));
  }
  void array(uint32_t Count) noexcept { counted(rt::ValueTag::Array, Count); }

  char *position() const noexcept { return Cur; }
  bool truncated() const noexcept { return Full; }

private:
  bool room(size_t N) noexcept {
    // Keep one byte for the Truncated tag.
    if (!Full && static_cast<size_t>(End - Cur) >= N + 1)
      return true;
    if (!Full && Cur < End)
      *Cur++ = static_cast<char>(rt::ValueTag::Truncated);
    Full = true;
    return false;
  }
  void tag(rt::ValueTag T) noexcept {
    if (room(1))
      *Cur++ = static_cast<char>(T);
  }
  template <class T> void scalar(rt::ValueTag Tag, T V) noexcept {
    if (!room(1 + sizeof V))
      return;
    *Cur++ = static_cast<char>(Tag);
    std::memcpy(Cur, &V, sizeof V);
    Cur += sizeof V;
  }
  template <class T> void counted(rt::ValueTag Tag, T N) noexcept {
    scalar(Tag, N);
  }

  char *Cur;
  char *End;
  bool Full = false;
};

/// The customization point for watched and arg values. Specialize it for a
/// type of yours:
///
///   template <> struct sonde::ValueTraits<Point> {
///     static constexpr size_t MaxBytes = 64;    // bound of the raw encoding
///     static void write(sonde::ValueWriter &W, const Point &P) {
///       W.object(2);
///       W.key("x"); W.floating(P.X);
///       W.key("y"); W.floating(P.Y);
///     }
///   };
///
/// `write` runs on the recording thread: keep it cheap and allocation-free.
/// A specialization may instead (or also) provide
/// `static void write(ValueWriter &, const T &, Summary)`: watches then pass
/// the site's `summary:`. `MaxBytes` bounds the largest summary.
/// sonde/torch.h specializes it for tensors, sonde/containers.h for
/// std::vector and std::array of numbers.
template <class T, class Enable = void> struct ValueTraits;

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_same<T, bool>::value>> {
  static constexpr size_t MaxBytes = 1;
  static void write(ValueWriter &W, bool V) noexcept { W.boolean(V); }
};

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_integral<T>::value &&
                                       !std::is_same<T, bool>::value>> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, T V) noexcept {
    if (std::is_signed<T>::value)
      W.integer(static_cast<int64_t>(V));
    else
      W.unsignedInteger(static_cast<uint64_t>(V));
  }
};

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_floating_point<T>::value>> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, T V) noexcept {
    W.floating(static_cast<double>(V));
  }
};

/// Enums are recorded as their underlying integer.
template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_enum<T>::value>> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, T V) noexcept {
    ValueTraits<std::underlying_type_t<T>>::write(
        W, static_cast<std::underlying_type_t<T>>(V));
  }
};

template <> struct ValueTraits<std::string_view> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  static void write(ValueWriter &W, std::string_view V) noexcept {
    W.string(V.data(), V.size());
  }
};

template <> struct ValueTraits<std::string> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  static void write(ValueWriter &W, const std::string &V) noexcept {
    W.string(V.data(), V.size());
  }
};

template <> struct ValueTraits<const char *> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  static void write(ValueWriter &W, const char *V) noexcept {
    if (!V)
      return W.null();
    W.string(V, strnlen(V, rt::MaxStringBytes));
  }
};
template <> struct ValueTraits<char *> : ValueTraits<const char *> {};
template <size_t N> struct ValueTraits<char[N]> : ValueTraits<const char *> {};
template <size_t N>
struct ValueTraits<const char[N]> : ValueTraits<const char *> {};

/// Pointers other than strings are recorded as an address.
template <class T>
struct ValueTraits<T *, std::enable_if_t<!std::is_same<
                            std::remove_cv_t<T>, char>::value>> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, const T *V) noexcept {
    W.unsignedInteger(reinterpret_cast<uintptr_t>(V));
  }
};

namespace rt {
namespace detail {

template <class T> using Traits = ValueTraits<std::decay_t<T>>;

/// Raw bytes a value may take, including the Truncated tag, rounded up.
template <class T> constexpr size_t maxBytes() {
  return Traits<T>::MaxBytes + 1;
}

constexpr uint32_t align8(size_t N) {
  return static_cast<uint32_t>((N + 7) & ~size_t(7));
}

/// Whether the traits of `T` take a Summary.
template <class T, class = void> struct HasSummaryWrite : std::false_type {};
template <class T>
struct HasSummaryWrite<
    T, std::void_t<decltype(Traits<T>::write(
           std::declval<ValueWriter &>(),
           std::declval<const std::decay_t<T> &>(), Summary::Default))>>
    : std::true_type {};

/// Writes `V` with its traits, passing `S` when they take a summary.
template <class T>
SONDE_ALWAYS_INLINE void writeValue(ValueWriter &W, const T &V,
                                    Summary S) noexcept {
  if constexpr (HasSummaryWrite<T>::value)
    Traits<T>::write(W, V, S);
  else
    Traits<T>::write(W, V);
}

template <class... Ts> constexpr size_t sumMaxBytes() {
  size_t Sum = 0;
  for (size_t B : {size_t(0), maxBytes<Ts>()...})
    Sum += B;
  return Sum;
}

/// Writes a context record: the values of a site's args, in order.
template <class... Ts>
void pushArgs(ThreadState *T, uint32_t Id, uint64_t Tsc,
              const Ts &...Vs) noexcept {
  constexpr uint32_t Max = align8(16 + sumMaxBytes<Ts...>());
  static_assert(Max < 65536, "args too large for one record");
  char *P = reserve(T, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  (writeValue(W, Vs, Summary::Default), ...);
  uint32_t Size = align8(W.position() - P);
  putHeader(P, static_cast<uint16_t>(Size), RecType::CtxPush,
            static_cast<uint8_t>(sizeof...(Ts)), Id);
  put64(P + 8, Tsc);
  commit(T, Size);
}

SONDE_ALWAYS_INLINE void popArgs(ThreadState *T, uint32_t Id,
                                 uint64_t Tsc) noexcept {
  if (char *P = reserve(T, 16)) {
    putHeader(P, 16, RecType::CtxPop, 0, Id);
    put64(P + 8, Tsc);
    commit(T, 16);
  }
}

/// Opens a region on the thread's shadow stack (what a crash reports as
/// unfinished, and where the nesting level comes from).
SONDE_ALWAYS_INLINE void open(ThreadState *T, uint32_t Id, uint64_t Start,
                              bool HasArgs = false) noexcept {
  uint32_t D = T->Depth++;
  if (SONDE_LIKELY(D < MaxDepth))
    T->Stack[D] = OpenRegion{Id, HasArgs, Start};
}

/// Closes the innermost region without recording it.
SONDE_ALWAYS_INLINE void discard(ThreadState *T) noexcept {
  uint32_t D = --T->Depth;
  if (SONDE_LIKELY(D < MaxDepth) && SONDE_UNLIKELY(T->Stack[D].HasArgs))
    popArgs(T, T->Stack[D].Site, now());
}

/// Closes the innermost region and records it.
SONDE_ALWAYS_INLINE void close(ThreadState *T, uint64_t End,
                               uint64_t Iteration = ~uint64_t(0)) noexcept {
  uint32_t D = --T->Depth;
  if (SONDE_UNLIKELY(D >= MaxDepth))
    return;
  const OpenRegion &R = T->Stack[D];
  auto Level = static_cast<uint8_t>(levelOf(D));
  if (Iteration == ~uint64_t(0)) {
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

} // namespace detail
} // namespace rt

//===----------------------------------------------------------------------===//
// Probes
//===----------------------------------------------------------------------===//

/// Records a point in time.
SONDE_ALWAYS_INLINE void instant(const Site &S) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *T = rt::detail::thread();
  if (char *P = rt::detail::reserve(T, 16)) {
    rt::detail::putHeader(P, 16, rt::RecType::Instant, 0,
                          Id | rt::detail::levelBits(T));
    rt::detail::put64(P + 8, now());
    rt::detail::commit(T, 16);
  }
}

/// Records a value of any type with a `ValueTraits` specialization.
template <class T> inline void watch(const Site &S, const T &V) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *Th = rt::detail::thread();
  uint64_t Tsc = now();
  constexpr uint32_t Max = rt::detail::align8(16 + rt::detail::maxBytes<T>());
  char *P = rt::detail::reserve(Th, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  rt::detail::writeValue(W, V, summaryOf(S));
  uint32_t Size = rt::detail::align8(W.position() - P);
  // Aux 0: a structured value follows the time (scalars use watchScalar).
  rt::detail::putHeader(P, static_cast<uint16_t>(Size), rt::RecType::Watch, 0,
                        Id | rt::detail::levelBits(Th));
  rt::detail::put64(P + 8, Tsc);
  rt::detail::commit(Th, Size);
}

/// The fast path for the commonest watch: one fixed-size record.
template <class T>
SONDE_ALWAYS_INLINE std::enable_if_t<std::is_arithmetic<T>::value>
watchScalar(const Site &S, T V) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *Th = rt::detail::thread();
  if (char *P = rt::detail::reserve(Th, 24)) {
    rt::ValueTag Tag;
    uint64_t Bits;
    if constexpr (std::is_floating_point<T>::value) {
      double D = static_cast<double>(V);
      std::memcpy(&Bits, &D, 8);
      Tag = rt::ValueTag::Float;
    } else if constexpr (std::is_same<T, bool>::value) {
      Bits = 0;
      Tag = V ? rt::ValueTag::True : rt::ValueTag::False;
    } else if constexpr (std::is_signed<T>::value) {
      Bits = static_cast<uint64_t>(static_cast<int64_t>(V));
      Tag = rt::ValueTag::Int;
    } else {
      Bits = static_cast<uint64_t>(V);
      Tag = rt::ValueTag::UInt;
    }
    // A scalar watch keeps its tag in Aux and its 8 bytes after the time.
    rt::detail::putHeader(P, 24, rt::RecType::Watch,
                          static_cast<uint8_t>(0x80 | static_cast<int>(Tag)),
                          Id | rt::detail::levelBits(Th));
    rt::detail::put64(P + 8, now());
    rt::detail::put64(P + 16, Bits);
    rt::detail::commit(Th, 24);
  }
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
class Region {
public:
  SONDE_ALWAYS_INLINE explicit Region(const Site &S) noexcept {
    uint32_t Id = rt::detail::activeId(S);
    if (!Id)
      return;
    T = rt::detail::thread();
    rt::detail::open(T, Id, now());
  }
  template <class... Args>
  Region(const Site &S, const Args &...Vs) noexcept {
    uint32_t Id = rt::detail::activeId(S);
    if (!Id)
      return;
    T = rt::detail::thread();
    uint64_t Tsc = now();
    rt::detail::pushArgs(T, Id, Tsc, Vs...);
    rt::detail::open(T, Id, Tsc, /*HasArgs=*/true);
  }
  SONDE_ALWAYS_INLINE ~Region() {
    if (T)
      rt::detail::close(T, now());
  }
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;

private:
  rt::ThreadState *T = nullptr;
};

/// `mode: instant`: a start and a stop instant instead of one region.
class InstantRegion {
public:
  explicit InstantRegion(const Site &S) noexcept {
    Id = rt::detail::activeId(S);
    if (Id)
      mark(1);
  }
  ~InstantRegion() {
    if (Id)
      mark(2);
  }
  InstantRegion(const InstantRegion &) = delete;
  InstantRegion &operator=(const InstantRegion &) = delete;

private:
  void mark(uint8_t Which) noexcept {
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

inline RegionHandle begin(const Site &S) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return {};
  rt::ThreadState *T = rt::detail::thread();
  RegionHandle H{T, T->Depth};
  rt::detail::open(T, Id, now());
  return H;
}

/// Closes the region `H` and any region left open inside it.
inline void end(RegionHandle &H) noexcept {
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
    uint32_t St = S.State.load(std::memory_order_relaxed);
    if (SONDE_UNLIKELY(St == 0))
      St = (rt::detail::registerSite(S),
            S.State.load(std::memory_order_relaxed));
    uint32_t Id = St & Site::IdMask;
    if (Id >= rt::MaxFrameSites)
      return;
    Slot = &rt::detail::thread()->Frames[Id];
    ++*Slot;
  }
  ~Frame() {
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
  uint32_t Id = S.State.load(std::memory_order_relaxed) & Site::IdMask;
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
  explicit Loop(const Site &S) noexcept : S(S) {}
  const Site &S;
  uint64_t Next = 0; ///< the index the next iteration gets
};

/// One iteration of a Loop: `<name>.block` with its index.
class Iteration {
public:
  SONDE_ALWAYS_INLINE explicit Iteration(Loop &L) noexcept
      : Index(L.Next++) {
    uint32_t Id = rt::detail::activeId(L.S);
    if (!Id)
      return;
    T = rt::detail::thread();
    rt::detail::open(T, Id, now());
  }
  SONDE_ALWAYS_INLINE ~Iteration() {
    if (T)
      rt::detail::close(T, now(), Index);
  }
  Iteration(const Iteration &) = delete;
  Iteration &operator=(const Iteration &) = delete;

private:
  rt::ThreadState *T = nullptr;
  uint64_t Index;
};

/// Wraps a range so that a range-for over it records, per iteration,
/// `Fetch` (advancing and dereferencing the iterator: `<name>.iter`) and
/// `Body` (the loop body: `<name>.block`), as DFTracer's `.iter()`:
///
///   for (auto &Batch : sonde::iterate(FetchSite, BlockSite, *Loader))
///
/// The fetch is open while the iterator advances, so what the fetch records
/// (a dataset's `get`, its transforms) nests inside it, one level deeper.
/// The advance that finds the end is no iteration: it is recorded only when
/// something was recorded inside it (so that keeps its parent).
///
/// An rvalue range is moved into the wrapper, so `for (x : make())` keeps
/// its temporary alive exactly as the plain loop does; the engine passes a
/// prvalue of a class with its own copy, move or destructor as a lambda
/// (iterateMade), so that it is made in the wrapper, not moved. Without a
/// `Body` site only the fetch is recorded (see iterateFetch), and `On` false
/// records nothing.
namespace rt {
namespace detail {
template <class R, class = void> struct HasMemberBegin : std::false_type {};
template <class R>
struct HasMemberBegin<R, std::void_t<decltype(std::declval<R &>().begin())>>
    : std::true_type {};

/// begin() and end() as a range-for finds them: the members, else by
/// argument-dependent lookup (std::begin and std::end for arrays). The
/// engine wraps the range of a loop in a template, whose type it cannot
/// see, so the wrapper must take every range the loop itself takes.
template <class R> decltype(auto) rangeBegin(R &Range) {
  if constexpr (HasMemberBegin<R>::value) {
    return Range.begin();
  } else {
    using std::begin;
    return begin(Range);
  }
}
template <class R> decltype(auto) rangeEnd(R &Range) {
  if constexpr (HasMemberBegin<R>::value) {
    return Range.end();
  } else {
    using std::end;
    return end(Range);
  }
}
} // namespace detail
} // namespace rt

/// Tag of the Iterated constructor that makes its range in place.
struct MadeRange {};

template <class R> class Iterated {
  using Inner = decltype(rt::detail::rangeBegin(std::declval<R &>()));
  using InnerEnd = decltype(rt::detail::rangeEnd(std::declval<R &>()));

public:
  Iterated(bool On, const Site &Fetch, const Site *Body, R &&Range) noexcept
      : Range(std::forward<R>(Range)), Fetch(Fetch), Body(Body), On(On) {}
  /// The range is the prvalue `Make()` returns, made in place (guaranteed
  /// copy elision): a range the loop would have made as a temporary is
  /// neither copied nor moved (see iterateMade).
  template <class F>
  Iterated(MadeRange, bool On, const Site &Fetch, const Site *Body, F &&Make)
      : Range(static_cast<F &&>(Make)()), Fetch(Fetch), Body(Body), On(On) {}
  ~Iterated() {
    endFetch();
    closeBody();
  }
  Iterated(const Iterated &) = delete;
  Iterated &operator=(const Iterated &) = delete;

  class iterator {
  public:
    iterator(Inner It, Iterated *Owner) : It(std::move(It)), Owner(Owner) {}
    /// The element comes out as `*It` gives it: the same reference, or a
    /// prvalue made in place (holding it in a local to record the fetch
    /// first cost a move). The fetch is recorded once it is made, unless
    /// `*It` throws.
    decltype(auto) operator*() {
      Fetched Done{Owner, std::uncaught_exceptions()};
      return *It;
    }
    iterator &operator++() {
      Owner->closeBody();
      Owner->startFetch();
      ++It;
      return *this;
    }
    template <class E> bool operator!=(const E &End) const {
      bool More = It != End;
      if (!More)
        Owner->endFetch();
      return More;
    }

  private:
    struct Fetched {
      Iterated *Owner;
      int Uncaught;
      ~Fetched() {
        if (std::uncaught_exceptions() == Uncaught)
          Owner->fetched();
      }
    };
    Inner It;
    Iterated *Owner;
  };

  iterator begin() {
    // The first record of a run starts libsonde (the environment, this
    // thread's ring, the trace file: milliseconds); neither region of the
    // first iteration may contain it. startFetch starts it before it takes
    // the fetch's time; a body without a fetch is timed from the time
    // fetched() takes first, so it is started here.
    startFetch();
    if (!FetchThread && On && Body && rt::detail::activeId(*Body))
      rt::detail::thread();
    return iterator(rt::detail::rangeBegin(Range), this);
  }
  InnerEnd end() { return rt::detail::rangeEnd(Range); }

private:
  void startFetch() noexcept {
    if (!On)
      return;
    if (uint32_t Id = rt::detail::activeId(Fetch)) {
      FetchThread = rt::detail::thread();
      FetchMark = FetchThread->Published.load(std::memory_order_relaxed);
      rt::detail::open(FetchThread, Id, now());
    }
  }
  void fetched() noexcept {
    if (!On)
      return;
    uint64_t Tsc = now();
    if (FetchThread) {
      rt::detail::close(FetchThread, Tsc, Index);
      FetchThread = nullptr;
    }
    if (!Body)
      return;
    if (uint32_t Id = rt::detail::activeId(*Body)) {
      BodyThread = rt::detail::thread();
      rt::detail::open(BodyThread, Id, Tsc);
    }
  }
  /// The fetch found the end (or threw): recorded only around records made
  /// inside it.
  void endFetch() noexcept {
    if (!FetchThread)
      return;
    if (FetchThread->Published.load(std::memory_order_relaxed) != FetchMark)
      rt::detail::close(FetchThread, now(), Index);
    else
      rt::detail::discard(FetchThread);
    FetchThread = nullptr;
  }
  void closeBody() noexcept {
    if (BodyThread) {
      rt::detail::close(BodyThread, now(), Index);
      BodyThread = nullptr;
    }
    ++Index;
  }

  R Range;
  const Site &Fetch;
  const Site *Body;
  bool On;
  uint64_t Index = 0;
  uint64_t FetchMark = 0;
  rt::ThreadState *FetchThread = nullptr;
  rt::ThreadState *BodyThread = nullptr;
};

/// Deduces whether to keep the range by reference (lvalue) or by value.
template <class R>
Iterated<R> iterate(const Site &Fetch, const Site &Body, R &&Range) noexcept {
  return Iterated<R>(true, Fetch, &Body, std::forward<R>(Range));
}

/// iterate() over a prvalue range of a class with its own copy, move or
/// destructor, which the engine hands over as a lambda that makes it
/// (`[&]() -> decltype(auto) { return make(); }`): the range is made inside
/// the wrapper, where iterate() would have moved it in.
template <class F>
Iterated<decltype(std::declval<F &>()())>
iterateMade(const Site &Fetch, const Site &Body, F &&Make) {
  return Iterated<decltype(std::declval<F &>()())>(
      MadeRange{}, true, Fetch, &Body, static_cast<F &&>(Make));
}

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
// Rewriter support (written by the engine's owner, rewriter/; header-only)
//
// What sonde-rewrite and the plugin insert beyond the API above: regions
// guarded by a run-time condition (context frames, `when`, `every`) that can
// also close early (`!A, !!B` ranges), exit hooks (`#exit`, `#error`), the
// pass-through of `#value`, instants and watches that carry captures. Same
// hot-path rules as the rest of this header.
//===----------------------------------------------------------------------===//

#include <exception>

namespace sonde {

/// Whether `T` has a ValueTraits specialization (watches of other types
/// compile to nothing, so `*` and `$x` can match every local).
template <class T, class = void> struct Recordable : std::false_type {};
template <class T>
struct Recordable<T, std::void_t<decltype(ValueTraits<T>::MaxBytes)>>
    : std::true_type {};

/// Whether a watched variable of type `T` records a value: arrays other
/// than strings would decay to an address, which says nothing.
template <class T>
constexpr bool watchable() {
  if constexpr (std::is_array<T>::value)
    return std::is_same<std::remove_cv_t<std::remove_extent_t<T>>,
                        char>::value;
  else
    return Recordable<std::decay_t<T>>::value;
}

/// Watches `V` if its type is recordable; else does nothing.
template <class T>
SONDE_ALWAYS_INLINE void watchAny(const Site &S, const T &V) noexcept {
  if constexpr (watchable<T>())
    watchScalarOr(S, V);
}

namespace rt {
namespace detail {
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
    if constexpr (sizeof...(Args) > 0) {
      rt::detail::pushArgs(T, Id, Tsc, Vs...);
      HasArgs = true;
    }
    if (S.Flags & InstantMode) {
      Instant = true;
      rt::detail::mark(T, 1, Id, Tsc);
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
      rt::detail::mark(T, 2, Id, Tsc);
      if (HasArgs)
        rt::detail::popArgs(T, Id, Tsc);
    } else {
      rt::detail::close(T, Tsc);
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
class CondIteration {
public:
  template <class... Args>
  SONDE_ALWAYS_INLINE CondIteration(bool On, Loop &L,
                                    const Args &...Vs) noexcept
      : Index(L.Next++) {
    if (!On)
      return;
    uint32_t Id = rt::detail::activeId(L.S);
    if (!Id)
      return;
    T = rt::detail::thread();
    uint64_t Tsc = now();
    if constexpr (sizeof...(Args) > 0)
      rt::detail::pushArgs(T, Id, Tsc, Vs...);
    rt::detail::open(T, Id, Tsc, sizeof...(Args) > 0);
  }
  SONDE_ALWAYS_INLINE ~CondIteration() {
    if (T)
      rt::detail::close(T, now(), Index);
  }
  CondIteration(const CondIteration &) = delete;
  CondIteration &operator=(const CondIteration &) = delete;

private:
  rt::ThreadState *T = nullptr;
  uint64_t Index;
};

/// An instant whose args (captures, `args:`) ride along with it.
template <class... Args>
inline void instantArgs(const Site &S, const Args &...Vs) noexcept {
  uint32_t Id = rt::detail::activeId(S);
  if (!Id)
    return;
  rt::ThreadState *T = rt::detail::thread();
  uint64_t Tsc = now();
  rt::detail::pushArgs(T, Id, Tsc, Vs...);
  rt::detail::mark(T, 0, Id, Tsc);
  rt::detail::popArgs(T, Id, Tsc);
}

/// A watch whose args (captures, `args:`) ride along with it.
template <class T, class... Args>
inline void watchArgs(const Site &S, const T &V, const Args &...Vs) noexcept {
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
  explicit OnExit(F Fn) noexcept : Fn(std::move(Fn)) {}
  ~OnExit() { Fn(); }
  OnExit(const OnExit &) = delete;
  OnExit &operator=(const OnExit &) = delete;

private:
  F Fn;
};

/// Runs `Fn` when the scope is left by an exception (`#error`).
template <class F> class OnUnwind {
public:
  explicit OnUnwind(F Fn) noexcept
      : Fn(std::move(Fn)), Count(std::uncaught_exceptions()) {}
  ~OnUnwind() {
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
Iterated<R> iterateFetch(bool On, const Site &Fetch, R &&Range) noexcept {
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

//===----------------------------------------------------------------------===//
// API calls (`apis:`): a pre and a post record per call of a function
//
// The engine turns a selected call `f(a, b)` into
//
//   ::sonde::api(GUARD, site, 2, 2, [&](::sonde::ApiCall &c) -> decltype(auto)
//                { return f(c.arg(0, a), c.arg(1, b)); })
//
// (one line, insertions only). `arg` passes each argument through by
// reference with its value category unchanged, so overload resolution, the
// parameters' initialization and the order of evaluation are the compiler's
// as before; it remembers where the value is, and the last argument
// evaluated writes the pre record (all arguments are evaluated before the
// call starts). The records are Watch records of an `Api` site whose value
// is an object: {phase: "pre", call, args: [...]}, then {phase: "post",
// call, ret} or {phase: "error", call} (docs/trace-format.md).
//===----------------------------------------------------------------------===//

namespace rt {
namespace detail {
/// Calls recorded by this thread: the low bits of its call ids.
extern __thread uint64_t ApiCalls __attribute__((tls_model("initial-exec")));
} // namespace detail
} // namespace rt

/// One recorded call. Lives in sonde::api's frame for exactly the call.
class ApiCall {
public:
  /// The arguments a pre record can hold; later ones are recorded as null.
  static constexpr uint32_t MaxArgs = 16;
  /// Bound of one record: a value that does not fit ends truncated.
  static constexpr uint32_t MaxRecord = 4096;

  /// `Total` arguments are written at the call; `Wrapped` of them pass
  /// through arg(). Records only when `On` and the site is on.
  SONDE_ALWAYS_INLINE ApiCall(bool On, const Site &S, uint32_t Total,
                              uint32_t Wrapped) noexcept
      : Total(Total), Remaining(Wrapped) {
    if (On)
      Id = rt::detail::activeId(S);
    Sum = summaryOf(S);
  }
  ~ApiCall() {
    if (!Id || !Started || Posted)
      return;
    // The call did not return normally, or returned an object that is not
    // kept (see run()): the destructor tells the two apart.
    if (Direct && std::uncaught_exceptions() == Uncaught)
      finish(nullptr, nullptr, 0, false);
    else
      finish(nullptr, nullptr, 0, true);
  }
  ApiCall(const ApiCall &) = delete;
  ApiCall &operator=(const ApiCall &) = delete;

  /// Argument `I` of the call, passed through unchanged.
  template <class T> SONDE_ALWAYS_INLINE T &&arg(uint32_t I, T &&V) noexcept {
    if (Id) {
      using U = std::remove_reference_t<T>;
      if constexpr (watchable<U>() && !std::is_volatile<U>::value) {
        if (I < MaxArgs) {
          Slots[I] = Slot{&V, &writeOne<U>};
          Filled |= uint32_t(1) << I;
          ArgBytes += uint32_t(maxOne<U>());
        }
      }
      if (--Remaining == 0)
        pre();
    }
    return static_cast<T &&>(V);
  }

  /// Runs the call (the engine's lambda) between the pre and the post
  /// record; its result comes out as the call's would.
  template <class F> SONDE_ALWAYS_INLINE decltype(auto) run(F &&Fn) {
    if (Id && Remaining == 0)
      pre(); // no argument passes through arg(): before the call
    using R = decltype(static_cast<F &&>(Fn)(*this));
    if constexpr (std::is_void<R>::value) {
      static_cast<F &&>(Fn)(*this);
      post();
    } else if constexpr (std::is_reference<R>::value) {
      R V = static_cast<F &&>(Fn)(*this);
      post(&V);
      return static_cast<R>(V);
    } else if constexpr (watchable<R>() &&
                         std::is_move_constructible<R>::value &&
                         !std::is_const<R>::value) {
      return kept<R>(static_cast<F &&>(Fn));
    } else {
      // Not recordable: returned directly; the destructor writes the post.
      Direct = true;
      Uncaught = std::uncaught_exceptions();
      return static_cast<F &&>(Fn)(*this);
    }
  }

private:
  /// Runs the call into a local that is recorded, then returned. The local
  /// is the result object itself (NRVO: one local, one return, in a
  /// function of its own; in run() beside its other returns, neither clang
  /// nor g++ elided it and the result was moved once), so a class result is
  /// neither copied nor moved (test/lit/exec/lifetime.cpp counts them).
  template <class R, class F> SONDE_ALWAYS_INLINE R kept(F &&Fn) {
    R V = static_cast<F &&>(Fn)(*this);
    post(&V);
    return V;
  }

  using Writer = void (*)(ValueWriter &, const void *, Summary) noexcept;
  struct Slot {
    const void *P;
    Writer Write;
  };
  template <class U>
  static void writeOne(ValueWriter &W, const void *P, Summary S) noexcept {
    rt::detail::writeValue(W, *static_cast<const U *>(P), S);
  }
  template <class U> static constexpr size_t maxOne() {
    if constexpr (watchable<U>())
      return rt::detail::maxBytes<U>();
    else
      return 1;
  }

  /// The common head of the three records: {phase, call, ...}.
  SONDE_ALWAYS_INLINE static void head(ValueWriter &W, const char *Phase,
                                       uint8_t Len, uint64_t Call,
                                       uint16_t Members) noexcept {
    W.object(Members);
    W.key("phase");
    W.string(Phase, Len);
    W.key("call");
    W.unsignedInteger(Call);
  }
  static constexpr uint32_t HeadBytes = 16 + 3 + 9 + 9 + 9 + 9 + 9;

  SONDE_ALWAYS_INLINE void pre() noexcept {
    Started = true;
    rt::ThreadState *T = rt::detail::thread();
    Call = (uint64_t(T->Index) << 40) |
           (++rt::detail::ApiCalls & ((uint64_t(1) << 40) - 1));
    // The bound of the arguments was summed as they passed: reading it back
    // from Slots here made g++ -Wmaybe-uninitialized (an error under
    // -Werror) suspect the slots left unfilled.
    uint32_t Max = HeadBytes + 9 + 5 + Total + ArgBytes;
    Max = rt::detail::align8(Max < MaxRecord ? Max : MaxRecord);
    uint64_t Tsc = now();
    char *P = rt::detail::reserve(T, Max);
    if (!P)
      return;
    ValueWriter W(P + 16, P + Max);
    head(W, "pre", 3, Call, 3);
    W.key("args");
    W.array(Total);
    for (uint32_t I = 0; I < Total; ++I) {
      if (I < MaxArgs && (Filled >> I & 1))
        Slots[I].Write(W, Slots[I].P, Sum);
      else
        W.null();
    }
    commitValue(T, P, W, Tsc);
  }

  template <class V> SONDE_ALWAYS_INLINE void post(const V *Ret) noexcept {
    if (!Id || !Started)
      return;
    using U = std::remove_reference_t<V>;
    if constexpr (watchable<U>() && !std::is_volatile<U>::value)
      finish(Ret, &writeOne<U>, uint32_t(maxOne<U>()), false);
    else
      finish(nullptr, nullptr, 0, false);
  }
  SONDE_ALWAYS_INLINE void post() noexcept {
    if (Id && Started)
      finish(nullptr, nullptr, 0, false);
  }

  void finish(const void *Ret, Writer Write, uint32_t RetMax,
              bool Error) noexcept {
    Posted = true;
    rt::ThreadState *T = rt::detail::thread();
    uint64_t Tsc = now();
    uint32_t Max = HeadBytes + 9 + 1 + RetMax;
    Max = rt::detail::align8(Max < MaxRecord ? Max : MaxRecord);
    char *P = rt::detail::reserve(T, Max);
    if (!P)
      return;
    ValueWriter W(P + 16, P + Max);
    if (Error) {
      head(W, "error", 5, Call, 2);
    } else if (!Write) {
      head(W, "post", 4, Call, 2);
    } else {
      head(W, "post", 4, Call, 3);
      W.key("ret");
      Write(W, Ret, Sum);
    }
    commitValue(T, P, W, Tsc);
  }

  SONDE_ALWAYS_INLINE void commitValue(rt::ThreadState *T, char *P,
                                       ValueWriter &W, uint64_t Tsc) noexcept {
    uint32_t Size = rt::detail::align8(W.position() - P);
    rt::detail::putHeader(P, static_cast<uint16_t>(Size), rt::RecType::Watch, 0,
                          Id | rt::detail::levelBits(T));
    rt::detail::put64(P + 8, Tsc);
    rt::detail::commit(T, Size);
  }

  uint32_t Id = 0;
  uint32_t Total;
  uint32_t Remaining;
  bool Started = false; ///< the pre record is written: the call started
  bool Posted = false;
  bool Direct = false;
  int Uncaught = 0;
  uint64_t Call = 0;
  Summary Sum = Summary::Default; ///< `args:` of the spec entry
  uint32_t Filled = 0;            ///< bit I: Slots[I] holds argument I
  uint32_t ArgBytes = 0;          ///< the bound of the filled slots' values
  Slot Slots[MaxArgs]; ///< left uninitialized: filled as arguments pass
};

/// A call selected by `apis:`: see ApiCall.
template <class F>
SONDE_ALWAYS_INLINE decltype(auto) api(bool On, const Site &S, uint32_t Total,
                                       uint32_t Wrapped, F &&Fn) {
  ApiCall C(On, S, Total, Wrapped);
  return C.run(static_cast<F &&>(Fn));
}
} // namespace sonde

//===----------------------------------------------------------------------===//
// Macros for hand-written probes
//===----------------------------------------------------------------------===//

#define SONDE_CONCAT_(A, B) A##B
#define SONDE_CONCAT(A, B) SONDE_CONCAT_(A, B)
#define SONDE_UNIQUE(Name) SONDE_CONCAT(Name, __LINE__)

/// A region from here to the end of the enclosing scope.
#define SONDE_REGION(Category, Name)                                          \
  static ::sonde::Site SONDE_UNIQUE(sonde_site_)(                             \
      ::sonde::SiteKind::Region, Category, Name, __FILE__, __LINE__, __func__); \
  ::sonde::Region SONDE_UNIQUE(sonde_region_)(SONDE_UNIQUE(sonde_site_))

/// An instant, now.
#define SONDE_INSTANT(Category, Name)                                         \
  do {                                                                         \
    static ::sonde::Site SondeSite(::sonde::SiteKind::Instant, Category,       \
                                   Name, __FILE__, __LINE__, __func__);        \
    ::sonde::instant(SondeSite);                                               \
  } while (0)

/// The current value of `Expr`, recorded as `Name`.
#define SONDE_WATCH(Name, Expr)                                               \
  do {                                                                         \
    static ::sonde::Site SondeSite(::sonde::SiteKind::Watch, "user", Name,     \
                                   __FILE__, __LINE__, __func__);              \
    ::sonde::watchScalarOr(SondeSite, (Expr));                                 \
  } while (0)

#endif // SONDE_SONDE_H
