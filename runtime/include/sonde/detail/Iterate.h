//===- sonde/detail/Iterate.h - Recorded range-for loops --------*- C++ -*-===//
//
// `sonde::iterate`: a range wrapper whose range-for records, per iteration,
// the fetch (`<name>.iter`) and the body (`<name>.block`), as DFTracer's
// `.iter()`; the engine wraps loops with it, and it can be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_ITERATE_H
#define SONDE_DETAIL_ITERATE_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Compiler.h"
#include "Ring.h"
#include "StaticSite.h"

#include <cstdint>
#include <exception>
// std::begin and std::end, which <string_view> declares as <iterator> does:
// <iterator> pulls in <streambuf> and <string>, half of sonde.h's compile
// time (docs/reliability.md, "The cost of instrumented code").
#include <string_view>
#include <type_traits>
#include <utility>

namespace sonde {

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
template <class R> SONDE_NODEBUG decltype(auto) rangeBegin(R &Range) {
  if constexpr (HasMemberBegin<R>::value) {
    return Range.begin();
  } else {
    using std::begin;
    return begin(Range);
  }
}
template <class R> SONDE_NODEBUG decltype(auto) rangeEnd(R &Range) {
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

namespace rt {
/// What a recorded range-for records, apart from its range: the fetch and
/// body regions of each iteration and the iteration's index. It depends on
/// no type, so its members are compiled once, in libsonde
/// (recorder/IterationRecorder.cpp): inlined into every `Iterated<R>`, they
/// were most of the code a wrapped loop asked the compiler for (about 1,250
/// lines of IR for one loop over a libtorch DataLoader; docs/plugin.md,
/// "Cost"). An iteration pays three calls more than the inlined writers.
class IterationRecorder {
public:
  SONDE_NODEBUG IterationRecorder(bool On, const Site &Fetch,
                                  const Site *Body) noexcept
      : Fetch(Fetch), Body(Body), On(On) {}
  IterationRecorder(const IterationRecorder &) = delete;
  IterationRecorder &operator=(const IterationRecorder &) = delete;

  /// Before the first advance: the first fetch opens, and this thread is
  /// attached before any region's time is taken (the first record of a run
  /// starts libsonde: milliseconds, which no region may contain).
  void begin() noexcept;
  /// The element is made: the fetch closes and the body opens.
  void fetched() noexcept;
  /// `++It`: the body closes and the next fetch opens.
  void advance() noexcept;
  /// The advance found the end (or the loop is left): the open fetch is
  /// recorded only when something was recorded inside it.
  void endFetch() noexcept;
  /// The loop is left (its wrapper destroyed): what is open closes.
  void finish() noexcept;

private:
  void startFetch() noexcept;
  void closeBody() noexcept;

  const Site &Fetch;
  const Site *Body;
  bool On;
  uint64_t Index = 0;
  uint64_t FetchMark = 0;
  ThreadState *FetchThread = nullptr;
  ThreadState *BodyThread = nullptr;
};
} // namespace rt

template <class R> class Iterated {
  using Inner = decltype(rt::detail::rangeBegin(std::declval<R &>()));
  using InnerEnd = decltype(rt::detail::rangeEnd(std::declval<R &>()));

public:
  SONDE_NODEBUG Iterated(bool On, const Site &Fetch, const Site *Body,
                         R &&Range) noexcept
      : Range(std::forward<R>(Range)), Rec(On, Fetch, Body) {}
  /// The range is the prvalue `Make()` returns, made in place (guaranteed
  /// copy elision): a range the loop would have made as a temporary is
  /// neither copied nor moved (see iterateMade).
  template <class F>
  SONDE_NODEBUG Iterated(MadeRange, bool On, const Site &Fetch,
                         const Site *Body, F &&Make)
      : Range(static_cast<F &&>(Make)()), Rec(On, Fetch, Body) {}
  SONDE_NODEBUG ~Iterated() { Rec.finish(); }
  Iterated(const Iterated &) = delete;
  Iterated &operator=(const Iterated &) = delete;

  class iterator {
  public:
    SONDE_NODEBUG iterator(Inner It, rt::IterationRecorder *Rec)
        : It(std::move(It)), Rec(Rec) {}
    /// The element comes out as `*It` gives it: the same reference, or a
    /// prvalue made in place (holding it in a local to record the fetch
    /// first cost a move). The fetch is recorded once it is made, unless
    /// `*It` throws.
    SONDE_NODEBUG decltype(auto) operator*() {
      Fetched Done{Rec, std::uncaught_exceptions()};
      return *It;
    }
    SONDE_NODEBUG iterator &operator++() {
      Rec->advance();
      ++It;
      return *this;
    }
    template <class E> SONDE_NODEBUG bool operator!=(const E &End) const {
      bool More = It != End;
      if (!More)
        Rec->endFetch();
      return More;
    }

  private:
    struct Fetched {
      rt::IterationRecorder *Rec;
      int Uncaught;
      SONDE_NODEBUG ~Fetched() {
        if (std::uncaught_exceptions() == Uncaught)
          Rec->fetched();
      }
    };
    Inner It;
    rt::IterationRecorder *Rec;
  };

  SONDE_NODEBUG iterator begin() {
    Rec.begin();
    return iterator(rt::detail::rangeBegin(Range), &Rec);
  }
  SONDE_NODEBUG InnerEnd end() { return rt::detail::rangeEnd(Range); }

private:
  R Range;
  rt::IterationRecorder Rec;
};

/// Deduces whether to keep the range by reference (lvalue) or by value.
template <class R>
SONDE_NODEBUG Iterated<R> iterate(const Site &Fetch, const Site &Body,
                                  R &&Range) noexcept {
  return Iterated<R>(true, Fetch, &Body, std::forward<R>(Range));
}

/// iterate() over a prvalue range of a class with its own copy, move or
/// destructor, which the engine hands over as a lambda that makes it
/// (`[&]() -> decltype(auto) { return make(); }`): the range is made inside
/// the wrapper, where iterate() would have moved it in.
template <class F>
SONDE_NODEBUG Iterated<decltype(std::declval<F &>()())>
iterateMade(const Site &Fetch, const Site &Body, F &&Make) {
  return Iterated<decltype(std::declval<F &>()())>(
      MadeRange{}, true, Fetch, &Body, static_cast<F &&>(Make));
}

} // namespace sonde

#endif // SONDE_DETAIL_ITERATE_H
