//===- UnmatchedTest.cpp - Probes that match nothing ----------------------===//

#include "sonde/rewriter/Unmatched.h"

#include "gtest/gtest.h"

using namespace sonde::rewriter;

namespace {

Spec spec(llvm::StringRef Text) {
  llvm::Expected<Spec> S = parseSpec(Text, "probes.yaml");
  EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
  return std::move(*S);
}

TEST(UnmatchedTest, NearestFunctionIsATypoOfAnExistingName) {
  std::vector<std::string> Names = {"main", "train", "toy::train_epoch",
                                    "app::NetImpl::forward"};
  EXPECT_EQ(nearestFunction("trian", Names), "train");
  EXPECT_EQ(nearestFunction("toy::train_epock", Names), "toy::train_epoch");
  // TORCH_MODULE(Net) makes the class NetImpl.
  EXPECT_EQ(nearestFunction("Net::forward", Names), "NetImpl::forward");
  EXPECT_EQ(nearestFunction("Net::forwrd", Names), "NetImpl::forward");
  EXPECT_EQ(nearestFunction("completely_different", Names), "");
  // Globs are not typos.
  EXPECT_EQ(nearestFunction("tr*", Names), "");
}

TEST(UnmatchedTest, SummaryRoundTrips) {
  MatchSummary M;
  M.Spec = "abc";
  M.MatchCounts = {0, 3};
  M.Names = {"(anonymous namespace)::f", "g"};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  M.write(OS);
  OS.flush();
  llvm::Expected<MatchSummary> Back = MatchSummary::parse(Text, "x");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Spec, "abc");
  EXPECT_EQ(Back->MatchCounts, M.MatchCounts);
  EXPECT_EQ(Back->Names, M.Names);
}

TEST(UnmatchedTest, SummaryRefusesOtherText) {
  llvm::Expected<MatchSummary> M = MatchSummary::parse("hello\n", "f.txt");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError()).find("f.txt: not a sonde match"),
            std::string::npos);
  M = MatchSummary::parse("sonde-match-summary 1\ncounts 1 x\n", "f.txt");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError()).find("bad count 'x'"),
            std::string::npos);
}

TEST(UnmatchedTest, ProbesMatchedInAnyUnitAreNotReported) {
  Spec S = spec("version: 1\nprobes:\n"
                "  - at: \"trian > #loop_epoch\"\n"
                "  - at: \"step\"\n"
                "  - at: \"Net::forward\"\n");
  MatchSummary A, B;
  A.MatchCounts = {0, 1, 0};
  A.Names = {"step", "train"};
  B.MatchCounts = {0, 0, 0};
  B.Names = {"NetImpl::forward"};
  ASSERT_FALSE(bool(A.merge(B)));
  std::vector<UnmatchedProbe> U = unmatchedProbes(S, A);
  ASSERT_EQ(U.size(), 2u);
  EXPECT_EQ(U[0].P->At, "trian > #loop_epoch");
  EXPECT_EQ(U[0].Suggestion, "train > #loop_epoch");
  EXPECT_EQ(unmatchedMessage(U[0], "target t"),
            "selector 'trian > #loop_epoch' matches nothing in target t; "
            "did you mean 'train > #loop_epoch'?");
  EXPECT_EQ(U[1].Suggestion, "NetImpl::forward");
}

TEST(UnmatchedTest, SummariesOfDifferentSpecsDoNotMerge) {
  MatchSummary A, B;
  A.MatchCounts = {1};
  B.MatchCounts = {1, 2};
  llvm::Error E = A.merge(B);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
}

TEST(UnmatchedTest, FingerprintIgnoresComments) {
  Spec A = spec("version: 1\nprobes:\n  - at: \"f\"\n");
  Spec B = spec("version: 1\n# a comment\nprobes:\n  - at: \"f\"  # here\n");
  Spec C = spec("version: 1\nprobes:\n  - at: \"g\"\n");
  EXPECT_EQ(specFingerprint(A), specFingerprint(B));
  EXPECT_NE(specFingerprint(A), specFingerprint(C));
}

} // namespace
