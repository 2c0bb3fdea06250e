//===- RoundHalfAwayTest.cpp - The reader's tick-to-ns rounding -----------===//
//
// Every time the reader gives is Decoder::roundHalfAway of ticks times the
// clock's rate, which must be std::llround (half away from zero) exactly:
// a time off by 1 ns reorders two events. Its fast path truncates X + 0.5
// for X in [1, 2^52); these tests compare it with std::llround where that
// can go wrong (halves, the largest double below a half, around powers of
// two, the ends of the range) and on random values of every binade.
//
//===----------------------------------------------------------------------===//

#include "reader/Decoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

using sonde::trace::detail::Decoder;

namespace {

void expectLlround(double X) {
  ASSERT_EQ(Decoder::roundHalfAway(X), std::llround(X)) << std::hexfloat << X;
}

} // namespace

TEST(RoundHalfAwayTest, EdgesMatchLlround) {
  const double Two52 = 4503599627370496.0;
  for (double X : {0.0,
                   -0.0,
                   0.5,
                   -0.5,
                   1.0,
                   1.5,
                   2.5,
                   -2.5,
                   0.25,
                   0.75,
                   std::nextafter(0.5, 0.0),
                   std::nextafter(0.5, 1.0),
                   std::nextafter(1.0, 0.0),
                   std::nextafter(1.5, 1.0),
                   std::nextafter(1.5, 2.0),
                   Two52,
                   std::nextafter(Two52, 0.0),
                   Two52 / 2 + 0.5,
                   Two52 / 2 - 0.5,
                   9.2e18,
                   -9.2e18})
    expectLlround(X);
  // Just below and above every half and every power of two in range.
  for (int K = 0; K < 53; ++K) {
    double P = std::ldexp(1.0, K);
    for (double X : {P, P + 0.5, P - 0.5})
      for (double Y : {X, std::nextafter(X, 0.0), std::nextafter(X, 2 * X + 1)})
        expectLlround(Y);
  }
}

TEST(RoundHalfAwayTest, RandomValuesOfEveryBinadeMatchLlround) {
  std::mt19937_64 Rng(42);
  for (int K = -60; K < 62; ++K)
    for (int I = 0; I < 20000; ++I) {
      // A random mantissa in [2^K, 2^(K+1)), and values a tick times a rate
      // gives: an integer times a rate near 1/2.1 GHz.
      double M = 1.0 + static_cast<double>(Rng() >> 11) * 0x1p-53;
      expectLlround(std::ldexp(M, K));
      expectLlround(-std::ldexp(M, K));
      double Ticks = static_cast<double>(Rng() >> (64 - 52));
      expectLlround(Ticks * (1 / 2.1) + static_cast<double>(I % 2) * 0.5);
    }
}
