//===- sonde/detail/Atomic.h - Shared words without <atomic> ----*- C++ -*-===//
//
// The words the hot path shares with libsonde (a site's state, a ring's
// positions and drop count), on the compilers' __atomic builtins rather
// than std::atomic. Every instrumented translation unit includes sonde.h,
// and <atomic> was most of what sonde.h cost one that did not include it
// already: 97 M of the 164 M instructions sonde.h added to g++ -O2 of
// leveldb's util/hash.cc (docs/reliability.md, "The cost of instrumented
// code"). sonde.h is GNU C++ already (`__thread`, attributes), and g++ and
// clang give the same builtins.
//
// The layout is std::atomic<T>'s (one T, aligned to its size), so the ring
// layout, and its ABI token, are unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_ATOMIC_H
#define SONDE_DETAIL_ATOMIC_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Compiler.h"

#include <type_traits>

namespace sonde {
namespace rt {
namespace detail {

/// The memory orders the shared words use, as the builtins number them.
enum class MemOrder : int {
  Relaxed = __ATOMIC_RELAXED,
  Acquire = __ATOMIC_ACQUIRE,
  Release = __ATOMIC_RELEASE,
};

/// A lock-free integer or pointer with the part of std::atomic's interface
/// sonde uses. Constant-initialized like std::atomic (a `static Site` must
/// need no constructor at run time).
template <class T> class Atomic {
  static_assert(std::is_integral<T>::value || std::is_pointer<T>::value,
                "a word the builtins load and store whole");

public:
  constexpr Atomic() noexcept : V() {}
  constexpr Atomic(T Init) noexcept : V(Init) {}
  Atomic(const Atomic &) = delete;
  Atomic &operator=(const Atomic &) = delete;

  SONDE_NODEBUG T load(MemOrder O) const noexcept {
    return __atomic_load_n(&V, static_cast<int>(O));
  }
  SONDE_NODEBUG void store(T X, MemOrder O) noexcept {
    __atomic_store_n(&V, X, static_cast<int>(O));
  }

private:
  alignas(sizeof(T)) T V;
};

} // namespace detail
} // namespace rt
} // namespace sonde

#endif // SONDE_DETAIL_ATOMIC_H
