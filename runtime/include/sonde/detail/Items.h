//===- sonde/detail/Items.h - How many items a region processed -*- C++ -*-===//
//
// sonde::itemCount: what inserted code records for a probe's `items:`
// expression (docs/probe-spec.md). A number is its own count; a tensor (a
// type with `size(0)` and `dim()`, as at::Tensor) counts its first
// dimension, so `items: "batch.data"` is the batch size; a container (a
// type with `size()`) counts its elements. The value is taken by reference:
// recording the count never copies or moves what the user's expression
// names, and never throws (an undefined or 0-dim tensor counts 1 item when
// defined, 0 when not, rather than letting size(0) throw into the program).
// No libtorch header: the tensor case is recognized by its members.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_ITEMS_H
#define SONDE_DETAIL_ITEMS_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Compiler.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace sonde {
namespace detail {

template <class T, class = void> struct HasDimAndSize0 : std::false_type {};
template <class T>
struct HasDimAndSize0<T,
                      std::void_t<decltype(std::declval<const T &>().dim()),
                                  decltype(std::declval<const T &>().size(0))>>
    : std::true_type {};

template <class T, class = void> struct HasDefined : std::false_type {};
template <class T>
struct HasDefined<T, std::void_t<decltype(std::declval<const T &>().defined())>>
    : std::true_type {};

template <class T, class = void> struct HasSize : std::false_type {};
template <class T>
struct HasSize<T, std::void_t<decltype(std::declval<const T &>().size())>>
    : std::true_type {};

/// What itemCount takes: a number (not a bool), a tensor, a container.
template <class T>
constexpr bool IsCountable =
    (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) ||
    std::is_enum_v<T> || HasDimAndSize0<T>::value || HasSize<T>::value;

} // namespace detail

/// The item count of `V` (see the file comment): a number as itself (a
/// negative one as 0), a tensor by its first dimension, a container by its
/// size. Anything else (a bool too) matches no itemCount: the compile error
/// is at the call, which the engine places at the spec's `items:`.
template <class T,
          std::enable_if_t<detail::IsCountable<std::remove_cv_t<T>>, int> = 0>
SONDE_NODEBUG inline int64_t itemCount(const T &V) noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_integral_v<U> || std::is_enum_v<U>) {
    auto N = static_cast<long long>(V);
    return N < 0 ? 0 : static_cast<int64_t>(N);
  } else if constexpr (std::is_floating_point_v<U>) {
    return V > 0 ? static_cast<int64_t>(V) : 0;
  } else if constexpr (detail::HasDimAndSize0<U>::value) {
    if constexpr (detail::HasDefined<U>::value)
      if (!V.defined())
        return 0;
    if (V.dim() == 0)
      return 1;
    return static_cast<int64_t>(V.size(0));
  } else {
    return static_cast<int64_t>(V.size());
  }
}

} // namespace sonde

#endif // SONDE_DETAIL_ITEMS_H
