//===- ClockShiftTest.cpp - SONDE_TEST_CLOCK_OFFSET, entry by entry -------===//
//
// The simulated host's offset libsonde takes for its rank from a list of
// RANK:NANOSECONDS entries (ClockShift.h), and every form it refuses, with
// the entry it names.
//
//===----------------------------------------------------------------------===//

#include "ClockShift.h"

#include <gtest/gtest.h>

#include <string>

using sonde::rt::env::parseClockShift;

namespace {

/// The shift for `Rank`, or the refused entry as "!entry".
std::string shift(const char *S, uint64_t Rank) {
  int64_t Out = 12345;
  const char *Bad = nullptr;
  size_t Len = 0;
  if (!parseClockShift(S, Rank, Out, Bad, Len))
    return "!" + std::string(Bad, Len);
  return std::to_string(Out);
}

TEST(ClockShiftTest, TakesThisRanksEntry) {
  EXPECT_EQ(shift("1:7000000000,3:-2500000000", 1), "7000000000");
  EXPECT_EQ(shift("1:7000000000,3:-2500000000", 3), "-2500000000");
  EXPECT_EQ(shift("1:7000000000,3:-2500000000", 0), "0");
  EXPECT_EQ(shift("2:+5", 2), "5");
  EXPECT_EQ(shift("0:3600000000000", 0), "3600000000000");
  EXPECT_EQ(shift("0:-3600000000000", 0), "-3600000000000");
}

TEST(ClockShiftTest, RefusesTheWholeValueAtItsFirstBadEntry) {
  EXPECT_EQ(shift("", 0), "!");
  EXPECT_EQ(shift("1:5,", 1), "!");
  EXPECT_EQ(shift("7", 0), "!7");
  EXPECT_EQ(shift("1:5,x:3", 1), "!x:3");
  EXPECT_EQ(shift("1:5s", 1), "!1:5s");
  EXPECT_EQ(shift("1:", 1), "!1:");
  EXPECT_EQ(shift("1:-", 1), "!1:-");
  EXPECT_EQ(shift("-1:5", 1), "!-1:5");
  EXPECT_EQ(shift("1:3600000000001", 1), "!1:3600000000001");
  EXPECT_EQ(shift("2147483648:1", 0), "!2147483648:1");
  EXPECT_EQ(shift("1:99999999999999999999999", 1),
            "!1:99999999999999999999999");
  EXPECT_EQ(shift("1:5,1:6", 1), "!1:6"); // its own rank twice
  EXPECT_EQ(shift("1: 5", 1), "!1: 5");
}

} // namespace
