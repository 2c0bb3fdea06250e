//===- ChunkedPoolTest.cpp - Elements by index that never move ------------===//
//
// The events Order holds live in a ChunkedPool: an event must stay where it
// was made while the pool grows past its chunks (Order keeps indices and
// the Feed a pointer to the event it reads), and each is destroyed once.
//
//===----------------------------------------------------------------------===//

#include "reader/ChunkedPool.h"
#include "reader/LargeBuffer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using sonde::trace::detail::ChunkedPool;

namespace {

struct Counted {
  static int Live;
  std::string S = "a string past the small-string buffer, on the heap";
  int V = 0;
  Counted() { ++Live; }
  ~Counted() { --Live; }
};
int Counted::Live = 0;

} // namespace

TEST(ChunkedPool, ElementsStayWhereTheyWereMadeAsThePoolGrows) {
  ChunkedPool<Counted, 3> Pool; // chunks of 8: growth crosses many
  std::vector<const Counted *> Made;
  for (int I = 0; I < 100; ++I) {
    Counted &C = Pool.emplace_back();
    EXPECT_EQ(C.V, 0) << "value-initialized";
    C.V = I;
    Made.push_back(&C);
  }
  ASSERT_EQ(Pool.size(), 100u);
  for (int I = 0; I < 100; ++I) {
    EXPECT_EQ(&Pool[I], Made[I]) << I;
    EXPECT_EQ(Pool[I].V, I);
  }
}

TEST(ChunkedPool, DestroysEachElementOnce) {
  {
    ChunkedPool<Counted, 2> Pool;
    for (int I = 0; I < 13; ++I) // a chunk left part empty
      Pool.emplace_back();
    EXPECT_EQ(Counted::Live, 13);
  }
  EXPECT_EQ(Counted::Live, 0);
}

TEST(ChunkedPool, ChunksCutFromMappedBuffersHoldTheirElements) {
  // Chunks of 4096 elements of about 40 bytes: past two chunks they come
  // several at once, and from 8 chunks on from a mapped buffer
  // (LargeBuffer::MappedFrom).
  {
    ChunkedPool<Counted> Pool;
    std::vector<const Counted *> Made;
    for (int I = 0; I < 100000; ++I) {
      Counted &C = Pool.emplace_back();
      C.V = I;
      Made.push_back(&C);
    }
    for (int I = 0; I < 100000; I += 997) {
      EXPECT_EQ(&Pool[I], Made[I]) << I;
      EXPECT_EQ(Pool[I].V, I);
    }
    EXPECT_EQ(Counted::Live, 100000);
  }
  EXPECT_EQ(Counted::Live, 0);
}

TEST(LargeBuffer, SmallAndMappedBuffersAreWritableAndMove) {
  using sonde::trace::detail::LargeBuffer;
  for (size_t Bytes : {size_t(2), size_t(4096), LargeBuffer::MappedFrom,
                       LargeBuffer::MappedFrom * 5 + 3}) {
    LargeBuffer B(Bytes);
    ASSERT_TRUE(B) << Bytes;
    B.data()[0] = 1;
    B.data()[Bytes - 1] = 2;
    LargeBuffer Moved = std::move(B);
    EXPECT_FALSE(B) << "moved from";
    EXPECT_EQ(Moved.data()[0], 1);
    EXPECT_EQ(Moved.data()[Bytes - 1], 2);
    Moved = LargeBuffer(16); // the mapped one is given back
    EXPECT_TRUE(Moved);
  }
}
