//===- EnvTest.cpp - libsonde's environment values, parsed exactly --------===//
//
// runtime/recorder/Env.h: what SONDE_BUFFER_SIZE, SONDE_MAX_BYTES and the rank
// variables accept. LifecycleTest checks the stderr line a refused value
// gives and what the runtime uses instead.
//
//===----------------------------------------------------------------------===//

#include "Env.h"

#include <gtest/gtest.h>

#include <string>

using namespace sonde::rt::env;

namespace {

TEST(Env, BytesTakeDigitsAndOneBinaryUnit) {
  struct Case {
    const char *Text;
    uint64_t Bytes;
  } Cases[] = {
      {"0", 0},
      {"4096", 4096},
      {"64K", 64u << 10},
      {"64k", 64u << 10},
      {"4M", 4u << 20},
      {"4MB", 4u << 20},
      {"1gb", 1ull << 30},
      {"4MiB", 4u << 20},
      {"4mib", 4u << 20},
      {"1G", 1ull << 30},
      {"2T", 2ull << 40},
      {"1P", 1ull << 50},
      {"15E", 15ull << 60},
      {"18446744073709551615", UINT64_MAX},
  };
  for (const Case &C : Cases) {
    uint64_t V = 7;
    EXPECT_TRUE(parseBytes(C.Text, V)) << C.Text;
    EXPECT_EQ(V, C.Bytes) << C.Text;
  }
}

TEST(Env, BytesRefuseAnythingElse) {
  for (const char *Bad :
       {"", "-1", "+4", " 4", "4 ", "4 M", "4.5M", "1e6", "K", "4X", "4KK",
        "4MiBs", "4iB", "0x10", "16EB", "16E", "99999999999999999999G",
        "18446744073709551616", "17179869184G"}) {
    uint64_t V = 7;
    EXPECT_FALSE(parseBytes(Bad, V)) << Bad;
    EXPECT_EQ(V, 7u) << "left alone: " << Bad;
  }
  uint64_t V = 0;
  EXPECT_FALSE(parseBytes(nullptr, V));
}

TEST(Env, RanksAreWholeNumbersUpToTheBound) {
  uint64_t V = 9;
  EXPECT_TRUE(parseRank("0", V));
  EXPECT_EQ(V, 0u);
  EXPECT_TRUE(parseRank("2147483647", V));
  EXPECT_EQ(V, MaxRank);
  for (const char *Bad : {"", "-1", "+1", "1.0", "3x", " 3", "2147483648",
                          "18446744073709551615", "99999999999999999999"})
    EXPECT_FALSE(parseRank(Bad, V)) << Bad;
}

TEST(Env, RingsArePowersOfTwoWithinTheBounds) {
  bool Clamped = true;
  EXPECT_EQ(ringBytes(MinRingBytes, Clamped), MinRingBytes);
  EXPECT_FALSE(Clamped);
  EXPECT_EQ(ringBytes(3u << 20, Clamped), 4u << 20);
  EXPECT_FALSE(Clamped);
  EXPECT_EQ(ringBytes(MaxRingBytes, Clamped), MaxRingBytes);
  EXPECT_FALSE(Clamped);
  EXPECT_EQ(ringBytes(MaxRingBytes + 1, Clamped), MaxRingBytes);
  EXPECT_TRUE(Clamped);
  EXPECT_EQ(ringBytes(UINT64_MAX, Clamped), MaxRingBytes);
  EXPECT_TRUE(Clamped);
  EXPECT_EQ(ringBytes(1, Clamped), MinRingBytes);
  EXPECT_TRUE(Clamped);
}

TEST(Env, BytesAreShownExactly) {
  char Buf[24];
  struct Case {
    uint64_t V;
    const char *Text;
  } Cases[] = {{0, "0"},
               {100, "100"},
               {64u << 10, "64K"},
               {1536u << 10, "1536K"},
               {256u << 20, "256M"},
               {1ull << 62, "4E"}};
  for (const Case &C : Cases) {
    formatBytes(C.V, Buf);
    EXPECT_EQ(std::string(Buf), C.Text);
    uint64_t Back = 1;
    ASSERT_TRUE(parseBytes(Buf, Back)) << Buf;
    EXPECT_EQ(Back, C.V) << Buf;
  }
}

} // namespace

TEST(Env, FlushDelaysAreMillisecondsOrSeconds) {
  uint64_t Ns = 0;
  ASSERT_TRUE(parseMillis("500", Ns));
  EXPECT_EQ(Ns, 500000000u);
  ASSERT_TRUE(parseMillis("250ms", Ns));
  EXPECT_EQ(Ns, 250000000u);
  ASSERT_TRUE(parseMillis("2s", Ns));
  EXPECT_EQ(Ns, 2000000000u);
  EXPECT_EQ(DefaultFlushDelayNs, 500000000u);
  for (const char *Bad : {"", "-1", "1.5s", "5 ms", "2h", "ms", "1msx",
                          "99999999999999999999", "18446744073709551615s"})
    EXPECT_FALSE(parseMillis(Bad, Ns)) << Bad;
  EXPECT_FALSE(parseMillis(nullptr, Ns));
}
