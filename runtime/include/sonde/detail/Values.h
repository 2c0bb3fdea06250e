//===- sonde/detail/Values.h - Value encoding: ValueWriter, ValueTraits ---===//
//
// How a watched value or an arg becomes bytes in a record: `ValueWriter`
// writes the raw, bounded encoding (tags of sonde/site.h, rt::ValueTag), and
// `ValueTraits<T>` is the customization point that says how a type writes
// itself and how many bytes it may take (Quill's codec). sonde/torch.h and
// sonde/containers.h add specializations; the writer re-encodes these bytes
// for the file (runtime/recorder/Encoder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_VALUES_H
#define SONDE_DETAIL_VALUES_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "../site.h"
#include "Compiler.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iosfwd> // std::basic_string, declared: <string> is not needed
#include <string_view>
#include <type_traits>
#include <utility>

namespace sonde {
namespace rt {
constexpr uint32_t MaxStringBytes = 256; ///< string values are capped
} // namespace rt

/// Writes one value in the raw encoding into a bounded buffer. Used by
/// `ValueTraits` specializations; every call checks the bound, and a value
/// that does not fit ends with a `Truncated` tag instead of overflowing.
class ValueWriter {
public:
  SONDE_NODEBUG ValueWriter(char *Begin, char *End) noexcept
      : Cur(Begin), End(End) {}

  SONDE_NODEBUG void null() noexcept { tag(rt::ValueTag::Null); }
  SONDE_NODEBUG void boolean(bool V) noexcept {
    tag(V ? rt::ValueTag::True : rt::ValueTag::False);
  }
  SONDE_NODEBUG void integer(int64_t V) noexcept {
    scalar(rt::ValueTag::Int, V);
  }
  SONDE_NODEBUG void unsignedInteger(uint64_t V) noexcept {
    scalar(rt::ValueTag::UInt, V);
  }
  SONDE_NODEBUG void floating(double V) noexcept {
    scalar(rt::ValueTag::Float, V);
  }
  /// Copies at most rt::MaxStringBytes bytes.
  SONDE_NODEBUG void string(const char *S, size_t N) noexcept {
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
  SONDE_NODEBUG void object(uint16_t Count) noexcept {
    counted(rt::ValueTag::Object, Count);
  }
  /// `Key` must be a string literal: only the pointer is recorded.
  SONDE_NODEBUG void key(const char *Key) noexcept {
    scalar(rt::ValueTag::Key, reinterpret_cast<uintptr_t>(Key));
  }
  SONDE_NODEBUG void array(uint32_t Count) noexcept {
    counted(rt::ValueTag::Array, Count);
  }

  SONDE_NODEBUG char *position() const noexcept { return Cur; }
  SONDE_NODEBUG bool truncated() const noexcept { return Full; }

private:
  SONDE_NODEBUG bool room(size_t N) noexcept {
    // Keep one byte for the Truncated tag.
    if (!Full && static_cast<size_t>(End - Cur) >= N + 1)
      return true;
    if (!Full && Cur < End)
      *Cur++ = static_cast<char>(rt::ValueTag::Truncated);
    Full = true;
    return false;
  }
  SONDE_NODEBUG void tag(rt::ValueTag T) noexcept {
    if (room(1))
      *Cur++ = static_cast<char>(T);
  }
  template <class T> SONDE_NODEBUG void scalar(rt::ValueTag Tag, T V) noexcept {
    if (!room(1 + sizeof V))
      return;
    *Cur++ = static_cast<char>(Tag);
    std::memcpy(Cur, &V, sizeof V);
    Cur += sizeof V;
  }
  template <class T>
  SONDE_NODEBUG void counted(rt::ValueTag Tag, T N) noexcept {
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
  SONDE_NODEBUG static void write(ValueWriter &W, bool V) noexcept {
    W.boolean(V);
  }
};

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_integral<T>::value &&
                                       !std::is_same<T, bool>::value>> {
  static constexpr size_t MaxBytes = 9;
  SONDE_NODEBUG static void write(ValueWriter &W, T V) noexcept {
    if (std::is_signed<T>::value)
      W.integer(static_cast<int64_t>(V));
    else
      W.unsignedInteger(static_cast<uint64_t>(V));
  }
};

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_floating_point<T>::value>> {
  static constexpr size_t MaxBytes = 9;
  SONDE_NODEBUG static void write(ValueWriter &W, T V) noexcept {
    W.floating(static_cast<double>(V));
  }
};

/// Enums are recorded as their underlying integer.
template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_enum<T>::value>> {
  static constexpr size_t MaxBytes = 9;
  SONDE_NODEBUG static void write(ValueWriter &W, T V) noexcept {
    ValueTraits<std::underlying_type_t<T>>::write(
        W, static_cast<std::underlying_type_t<T>>(V));
  }
};

template <> struct ValueTraits<std::string_view> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  SONDE_NODEBUG static void write(ValueWriter &W, std::string_view V) noexcept {
    W.string(V.data(), V.size());
  }
};

/// std::string. `write` is a template so that this header needs only
/// <iosfwd>'s declaration of std::string: <string> was most of sonde.h's
/// own compile time (docs/reliability.md, "The cost of instrumented code"),
/// and a program that has a string to watch has included it.
template <> struct ValueTraits<std::string> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  template <class S>
  SONDE_NODEBUG static void write(ValueWriter &W, const S &V) noexcept {
    W.string(V.data(), V.size());
  }
};

template <> struct ValueTraits<const char *> {
  static constexpr size_t MaxBytes = 3 + rt::MaxStringBytes;
  SONDE_NODEBUG static void write(ValueWriter &W, const char *V) noexcept {
    if (!V)
      return W.null();
    W.string(V, strnlen(V, rt::MaxStringBytes));
  }
};
template <> struct ValueTraits<char *> : ValueTraits<const char *> {};
template <size_t N> struct ValueTraits<char[N]> : ValueTraits<const char *> {};
template <size_t N>
struct ValueTraits<const char[N]> : ValueTraits<const char *> {};

namespace rt {
namespace detail {
/// The base of sonde's own traits for pointers: a pointer whose traits
/// derive from it records only its address, whatever it points to.
struct AddressTraits {};
} // namespace detail
} // namespace rt

/// Pointers other than strings are recorded as an address.
template <class T>
struct ValueTraits<
    T *, std::enable_if_t<!std::is_same<std::remove_cv_t<T>, char>::value>>
    : rt::detail::AddressTraits {
  static constexpr size_t MaxBytes = 9;
  SONDE_NODEBUG static void write(ValueWriter &W, const T *V) noexcept {
    W.unsignedInteger(reinterpret_cast<uintptr_t>(V));
  }
};

namespace rt {
namespace detail {

template <class T> using Traits = ValueTraits<std::decay_t<T>>;

/// Raw bytes a value may take, including the Truncated tag, rounded up.
template <class T> SONDE_NODEBUG constexpr size_t maxBytes() {
  return Traits<T>::MaxBytes + 1;
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

/// A value's writer, its type erased: ApiCall's argument slots and the
/// inserted watches of types libsonde does not write (watchErased) share
/// one instance per type.
using ErasedWriter = void (*)(ValueWriter &, const void *, Summary) noexcept;
template <class U>
SONDE_NODEBUG void writeErased(ValueWriter &W, const void *P,
                               Summary S) noexcept {
  writeValue(W, *static_cast<const U *>(P), S);
}

template <class... Ts> constexpr size_t sumMaxBytes() {
  size_t Sum = 0;
  for (size_t B : {size_t(0), maxBytes<Ts>()...})
    Sum += B;
  return Sum;
}

} // namespace detail
} // namespace rt

/// Whether `T` has a ValueTraits specialization (watches of other types
/// compile to nothing, so `*` and `$x` can match every local).
template <class T, class = void> struct Recordable : std::false_type {};
template <class T>
struct Recordable<T, std::void_t<decltype(ValueTraits<T>::MaxBytes)>>
    : std::true_type {};

/// Whether a watched variable of type `T` records a value: arrays other
/// than strings would decay to an address, which says nothing.
template <class T> constexpr bool watchable() {
  if constexpr (std::is_array<T>::value)
    return std::is_same<std::remove_cv_t<std::remove_extent_t<T>>, char>::value;
  else
    return Recordable<std::decay_t<T>>::value;
}

} // namespace sonde

#endif // SONDE_DETAIL_VALUES_H
