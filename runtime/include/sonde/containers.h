//===- sonde/containers.h - Watches of std::vector / std::array --*- C++
//-*-===//
//
// ValueTraits for std::vector<T> and std::array<T, N> of numbers (T
// arithmetic), with every `summary:`: `stats` (the default: size, min, max,
// mean, std, L2 norm, NaN and Inf counts), `shape` (the size), `hash` (a
// content hash) and `full` (the first 128 values). Light: only <array>,
// <vector> and sonde.h; the engine includes it when a watched type is one of
// these, and sonde/torch.h includes it too.
//
// The statistics code here is shared with libsonde_torch (tensors on the
// CPU are summarized with the same one-pass loop).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_CONTAINERS_H
#define SONDE_CONTAINERS_H

// Warnings from here are not the user's (see sonde.h).
#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "sonde.h" // beside this header: the plugin needs no -I

#include <array>
#include <vector>

namespace sonde {
namespace stats {

// Builtins rather than <cmath> and <limits>: this header rides along in
// every translation unit that watches a tensor.
inline bool isFinite(double X) noexcept { return __builtin_isfinite(X); }

/// How many values `full` records at most.
constexpr uint32_t FullCap = 128;

/// Bytes of the `stats` members: 7 keys and 7 scalars.
constexpr size_t StatsBytes = 7 * 18;
/// Bytes of `full`'s `values` member at its cap.
constexpr size_t FullBytes = 9 + 5 + FullCap * 9;

/// One-pass statistics: min, max, mean, std and L2 norm of the finite
/// values, and counts of NaN and Inf. Mean and variance use sums shifted by
/// the first finite value, so a large common offset does not cancel.
struct Accumulator {
  uint64_t Count = 0; ///< finite values
  uint64_t NaN = 0, Inf = 0;
  double Min = __builtin_inf();
  double Max = -__builtin_inf();
  double Shift = 0; ///< the first finite value
  double Sum = 0;   ///< of (x - Shift)
  double SumSq = 0; ///< of (x - Shift)^2
  double Sq = 0;    ///< of x^2

  void add(double X) noexcept {
    if (!isFinite(X)) {
      ++(__builtin_isnan(X) ? NaN : Inf);
      return;
    }
    if (!Count)
      Shift = X;
    ++Count;
    double D = X - Shift;
    Sum += D;
    SumSq += D * D;
    Sq += X * X;
    Min = X < Min ? X : Min;
    Max = X > Max ? X : Max;
  }

  double mean() const noexcept {
    return Shift + Sum / static_cast<double>(Count);
  }
  /// The sample standard deviation (n - 1), 0 for a single value.
  double stddev() const noexcept {
    if (Count < 2)
      return 0;
    double N = static_cast<double>(Count);
    double Var = (SumSq - Sum * Sum / N) / (N - 1);
    return Var > 0 ? __builtin_sqrt(Var) : 0;
  }
  double norm() const noexcept { return __builtin_sqrt(Sq); }
};

/// Adds `N` values. The common case (every value finite) runs branch-free
/// over 8 independent lanes, which the compiler vectorizes; a NaN or an Inf
/// shows in the lanes' sums, and only then the values are counted one by
/// one.
template <class T> void addAll(Accumulator &A, const T *P, size_t N) noexcept {
  if (N == 0)
    return;
  constexpr size_t L = 8;
  double K = A.Count ? A.Shift : static_cast<double>(P[0]);
  if (isFinite(K) && N >= L) {
    double S[L] = {}, SS[L] = {}, Q[L] = {}, Mn[L], Mx[L];
    for (size_t J = 0; J < L; ++J)
      Mn[J] = Mx[J] = K;
    size_t I = 0;
    for (; I + L <= N; I += L)
      for (size_t J = 0; J < L; ++J) {
        double X = static_cast<double>(P[I + J]);
        double D = X - K;
        S[J] += D;
        SS[J] += D * D;
        Q[J] += X * X;
        Mn[J] = X < Mn[J] ? X : Mn[J];
        Mx[J] = X > Mx[J] ? X : Mx[J];
      }
    double Sum = 0, SumSq = 0, Sq = 0, Min = Mn[0], Max = Mx[0];
    for (size_t J = 0; J < L; ++J) {
      Sum += S[J];
      SumSq += SS[J];
      Sq += Q[J];
      Min = Mn[J] < Min ? Mn[J] : Min;
      Max = Mx[J] > Max ? Mx[J] : Max;
    }
    if (isFinite(Sum) && isFinite(SumSq) && isFinite(Sq)) {
      if (!A.Count)
        A.Shift = K;
      A.Count += I;
      A.Sum += Sum;
      A.SumSq += SumSq;
      A.Sq += Sq;
      A.Min = Min < A.Min ? Min : A.Min;
      A.Max = Max > A.Max ? Max : A.Max;
      for (; I < N; ++I)
        A.add(static_cast<double>(P[I]));
      return;
    }
  }
  for (size_t I = 0; I < N; ++I)
    A.add(static_cast<double>(P[I]));
}

/// Writes the 7 `stats` members (min, max, mean, std, norm, nan, inf) into
/// an object already opened with room for them.
inline void writeMembers(ValueWriter &W, const Accumulator &A) noexcept {
  auto Num = [&](const char *Key, double V) {
    W.key(Key);
    if (A.Count)
      W.floating(V);
    else
      W.null();
  };
  Num("min", A.Min);
  Num("max", A.Max);
  Num("mean", A.Count ? A.mean() : 0);
  Num("std", A.stddev());
  W.key("norm");
  W.floating(A.norm());
  W.key("nan");
  W.unsignedInteger(A.NaN);
  W.key("inf");
  W.unsignedInteger(A.Inf);
}

/// A 64-bit content hash of `N` bytes: four independent multiply-xor lanes
/// over 8-byte words, then a murmur3 finalizer. Not cryptographic: it tells
/// whether the bytes changed.
inline uint64_t hashBytes(const void *Data, size_t N,
                          uint64_t Seed = 0) noexcept {
  constexpr uint64_t M = 0x9E3779B97F4A7C15ull;
  const auto *P = static_cast<const unsigned char *>(Data);
  uint64_t H[4] = {Seed ^ M, Seed + 1, Seed ^ (M >> 7), Seed - 1};
  size_t I = 0;
  for (; I + 32 <= N; I += 32)
    for (int J = 0; J < 4; ++J) {
      uint64_t W;
      std::memcpy(&W, P + I + 8 * J, 8);
      H[J] = (H[J] ^ W) * M;
      H[J] ^= H[J] >> 31;
    }
  uint64_t R = N * M;
  for (int J = 0; J < 4; ++J)
    R = (R ^ H[J]) * M;
  for (; I < N; ++I)
    R = (R ^ P[I]) * 0x100000001B3ull;
  R ^= R >> 33;
  R *= 0xff51afd7ed558ccdull;
  R ^= R >> 33;
  R *= 0xc4ceb9fe1a85ec53ull;
  R ^= R >> 33;
  return R;
}

/// Writes `hash` as 16 hex digits.
inline void writeHash(ValueWriter &W, uint64_t H) noexcept {
  char Hex[16];
  for (int I = 15; I >= 0; --I, H >>= 4)
    Hex[I] = "0123456789abcdef"[H & 15];
  W.key("hash");
  W.string(Hex, 16);
}

/// Writes one element as the right scalar.
template <class T> void writeScalar(ValueWriter &W, T V) noexcept {
  if constexpr (std::is_same<T, bool>::value)
    W.boolean(V);
  else if constexpr (std::is_floating_point<T>::value)
    W.floating(static_cast<double>(V));
  else if constexpr (std::is_signed<T>::value)
    W.integer(static_cast<int64_t>(V));
  else
    W.unsignedInteger(static_cast<uint64_t>(V));
}

/// The summary of a contiguous run of numbers: {shape, numel, ...}.
template <class T>
void writeNumbers(ValueWriter &W, const T *P, size_t N, Summary S) noexcept {
  if (S == Summary::Default || S == Summary::Value)
    S = Summary::Stats;
  W.object(S == Summary::Shape ? 2 : S == Summary::Stats ? 2 + 7 : 3);
  W.key("shape");
  W.array(1);
  W.unsignedInteger(N);
  W.key("numel");
  W.unsignedInteger(N);
  switch (S) {
  case Summary::Stats: {
    Accumulator A;
    addAll(A, P, N);
    writeMembers(W, A);
    break;
  }
  case Summary::Hash:
    writeHash(W, hashBytes(P, N * sizeof(T)));
    break;
  case Summary::Full: {
    uint32_t K = N < FullCap ? static_cast<uint32_t>(N) : FullCap;
    W.key("values");
    W.array(K);
    for (uint32_t I = 0; I < K; ++I)
      writeScalar(W, P[I]);
    break;
  }
  default:
    break;
  }
}

} // namespace stats

/// std::vector of numbers: see the file comment. (vector<bool> has no
/// contiguous storage and is left out.)
template <class T, class A>
struct ValueTraits<std::vector<T, A>,
                   std::enable_if_t<std::is_arithmetic<T>::value &&
                                    !std::is_same<T, bool>::value>> {
  static constexpr size_t MaxBytes = 3 + 9 + 5 + 9 + 18 + stats::FullBytes;
  static void write(ValueWriter &W, const std::vector<T, A> &V,
                    Summary S = Summary::Default) noexcept {
    stats::writeNumbers(W, V.data(), V.size(), S);
  }
};

template <class T, size_t N>
struct ValueTraits<std::array<T, N>,
                   std::enable_if_t<std::is_arithmetic<T>::value>> {
  static constexpr size_t MaxBytes = 3 + 9 + 5 + 9 + 18 + stats::FullBytes;
  static void write(ValueWriter &W, const std::array<T, N> &V,
                    Summary S = Summary::Default) noexcept {
    stats::writeNumbers(W, V.data(), N, S);
  }
};

} // namespace sonde

#endif // SONDE_CONTAINERS_H
