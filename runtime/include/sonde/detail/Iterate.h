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

#include "Clock.h"
#include "Records.h"
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
      FetchMark = FetchThread->Published.load(rt::detail::MemOrder::Relaxed);
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
    if (FetchThread->Published.load(rt::detail::MemOrder::Relaxed) != FetchMark)
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

} // namespace sonde

#endif // SONDE_DETAIL_ITERATE_H
