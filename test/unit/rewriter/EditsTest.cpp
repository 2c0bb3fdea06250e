//===- EditsTest.cpp - Applying a plan ------------------------------------===//

#include "sonde/rewriter/Edits.h"

#include "gtest/gtest.h"

using namespace sonde::rewriter;

namespace {

TEST(Edits, AppliesSortedInsertions) {
  Plan P;
  P.Insertions = {
      {0, 0, 0, "<"}, {3, 0, 1, "["}, {3, 1, 2, "]"}, {6, 0, 3, ">"}};
  EXPECT_EQ(applyEdits("abcdef", P), "<abc[]def>");
}

TEST(Edits, InsertionsOnly) {
  EXPECT_FALSE(bool(checkInsertionsOnly("a\nbc\n", "xa\nbyc\n")));
  llvm::Error E = checkInsertionsOnly("a\nbc\n", "a\nb\nc\n");
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "line count changed: 3 lines became 4");
  llvm::Error F = checkInsertionsOnly("a\nbc\n", "a\ncb\n");
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(llvm::toString(std::move(F)),
            "line 2 is not a subsequence of its rewritten line");
}

TEST(Edits, UnifiedDiff) {
  std::string D = unifiedDiff("a.cpp", "a.cpp", "1\n2\n3\n4\n5\n6\n7\n",
                              "1\n2x\n3\n4\n5\n6\n7y\n");
  EXPECT_EQ(D, "--- a.cpp\n+++ a.cpp\n@@ -1,3 +1,3 @@\n 1\n-2\n+2x\n 3\n"
               "@@ -6,3 +6,3 @@\n 6\n-7\n+7y\n \n");
  EXPECT_EQ(unifiedDiff("a", "a", "same\n", "same\n"), "");
}

} // namespace
