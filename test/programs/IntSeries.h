//===- IntSeries.h - Integer watches that exercise their encoding -*- C++
//-*-===//
//
// The values `exit-paths series N` records and LifecycleTest expects back:
// integer watches of several sites, interleaved, whose encoding on disk is
// a delta from the site's previous integer in the block (format 1.6,
// docs/trace-format.md). The series covers what that must survive: a
// counter, deltas that wrap 64 bits, a site whose values change between
// signed and unsigned, an unsigned site counting down from the top, and
// more sites than the writer remembers at once (ExtraSites). Shared so that
// the program and the test compute the same numbers.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TEST_PROGRAMS_INTSERIES_H
#define SONDE_TEST_PROGRAMS_INTSERIES_H

#include <cstdint>

namespace intseries {

/// Sites beyond the four main ones, each hit on every ExtraSites-th step:
/// more than the writer's table of previous values holds.
constexpr unsigned ExtraSites = 260;

/// A value with its signedness, as a watch records it.
struct Val {
  bool Signed;
  uint64_t Bits;
};

/// Site 0: a counter from -1000 by 3.
inline Val counter(uint64_t I) {
  return {true, static_cast<uint64_t>(static_cast<int64_t>(I) * 3 - 1000)};
}
/// Site 1: alternately near the top and near the bottom of int64.
inline Val jumps(uint64_t I) {
  return {true, I % 2 ? static_cast<uint64_t>(INT64_MAX) - I
                      : static_cast<uint64_t>(INT64_MIN) + I};
}
/// Site 2: signed on even steps, unsigned on odd ones.
inline Val mixedSign(uint64_t I) {
  return I % 2 ? Val{false, I * 1000003u} : Val{true, I};
}
/// Site 3: unsigned, down from the top.
inline Val countdown(uint64_t I) { return {false, ~uint64_t(0) - I}; }
/// Extra site I % ExtraSites, on step I.
inline Val extra(uint64_t I) { return {true, I * I}; }

} // namespace intseries

#endif // SONDE_TEST_PROGRAMS_INTSERIES_H
