//===- sonde/detail/ApiCall.h - Recorded calls of `apis:` -------*- C++ -*-===//
//
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
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_APICALL_H
#define SONDE_DETAIL_APICALL_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Clock.h"
#include "Compiler.h"
#include "Records.h"
#include "Ring.h"
#include "StaticSite.h"
#include "Values.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <type_traits>

namespace sonde {

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
  SONDE_NODEBUG ~ApiCall() {
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
          Slots[I] = Slot{&V, &rt::detail::writeErased<U>};
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

  using Writer = rt::detail::ErasedWriter;
  struct Slot {
    const void *P;
    Writer Write;
  };
  template <class U> SONDE_NODEBUG static constexpr size_t maxOne() {
    if constexpr (watchable<U>())
      return rt::detail::maxBytes<U>();
    else
      return 1;
  }

  /// The pre record: {phase: "pre", call, args}, the arguments from the
  /// slots. Out of line in libsonde (recorder/ApiCall.cpp), as finish() is:
  /// neither depends on a type, and inlined at every call they were most
  /// of what an `apis:` site asks the compiler for (docs/plugin.md, "Cost").
  void pre() noexcept;

  template <class V> SONDE_ALWAYS_INLINE void post(const V *Ret) noexcept {
    if (!Id || !Started)
      return;
    using U = std::remove_reference_t<V>;
    if constexpr (watchable<U>() && !std::is_volatile<U>::value)
      finish(Ret, &rt::detail::writeErased<U>, uint32_t(maxOne<U>()), false);
    else
      finish(nullptr, nullptr, 0, false);
  }
  SONDE_ALWAYS_INLINE void post() noexcept {
    if (Id && Started)
      finish(nullptr, nullptr, 0, false);
  }

  /// The post record ({phase: "post", call, ret?}) or the error one.
  void finish(const void *Ret, Writer Write, uint32_t RetMax,
              bool Error) noexcept;

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

#endif // SONDE_DETAIL_APICALL_H
