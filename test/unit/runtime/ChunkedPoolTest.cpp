//===- ChunkedPoolTest.cpp - Elements by index that never move ------------===//
//
// The events Order holds live in a ChunkedPool: an event must stay where it
// was made while the pool grows past its chunks (Order keeps indices and
// the Feed a pointer to the event it reads), and each is destroyed once.
//
//===----------------------------------------------------------------------===//

#include "reader/ChunkedPool.h"

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
