//===- PlanTest.cpp - Plans over real ASTs --------------------------------===//

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Edits.h"
#include "sonde/rewriter/Spec.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace sonde::rewriter;

namespace {

struct Planned {
  Plan P;
  std::string Rewritten;
};

Planned plan(llvm::StringRef Code, llvm::StringRef Yaml) {
  auto S = parseSpec(Yaml, "probes.yaml");
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"},
                                               "train.cpp");
  auto P = computePlan(AST->getASTContext(), *S);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return {};
  }
  Planned Out{std::move(*P), ""};
  Out.Rewritten = applyEdits(Code, Out.P);
  return Out;
}

const char *Program = R"cpp(int step(int x) { return x + 1; }
int train(int n) {
  int loss = 0;
  for (int epoch = 0; epoch < n; ++epoch)
    loss = step(loss);
  return loss;
}
)cpp";

const char *Spec = R"(version: 1
probes:
  - at: train
    category: pipeline.train
  - at: "train > #loop_epoch"
    category: pipeline.epoch
watches:
  - at: "train > loss"
)";

TEST(Plan, SitesAndInsertionsOnly) {
  Planned R = plan(Program, Spec);
  ASSERT_EQ(R.P.Sites.size(), 4u);
  EXPECT_EQ(R.P.Sites[0].Kind, "region");
  EXPECT_EQ(R.P.Sites[0].Name, "train");
  EXPECT_EQ(R.P.Sites[0].Line, 2u);
  EXPECT_EQ(R.P.Sites[1].Name, "loss"); // the declaration
  EXPECT_EQ(R.P.Sites[2].Name, "epoch.block");
  EXPECT_EQ(R.P.Sites[3].Name, "loss"); // the write in the loop
  EXPECT_EQ(R.P.Sites[3].Line, 5u);
  EXPECT_FALSE(bool(checkInsertionsOnly(Program, R.Rewritten)));
  for (const Insertion &I : R.P.Insertions)
    EXPECT_EQ(I.Text.find('\n'), std::string::npos);
}

TEST(Plan, InsertionsAreSorted) {
  Planned R = plan(Program, Spec);
  for (size_t I = 1; I < R.P.Insertions.size(); ++I) {
    const Insertion &A = R.P.Insertions[I - 1], &B = R.P.Insertions[I];
    EXPECT_TRUE(std::tie(A.Offset, A.Rank) <= std::tie(B.Offset, B.Rank));
  }
}

// Braces around an unbraced body open before the loop's own declarations
// and close after the watch that follows the statement.
TEST(Plan, UnbracedBodyOrder) {
  Planned R = plan(Program, Spec);
  llvm::StringRef Line5 = llvm::StringRef(R.Rewritten).split('\n').second;
  for (int I = 0; I < 3; ++I)
    Line5 = Line5.split('\n').second;
  Line5 = Line5.split('\n').first;
  size_t Open = Line5.find("{ ::sonde::Iteration");
  size_t Stmt = Line5.find("loss = step(loss);");
  size_t Watch = Line5.find("::sonde::watchIntAt(");
  size_t Close = Line5.rfind(" }");
  ASSERT_NE(Open, llvm::StringRef::npos) << Line5.str();
  EXPECT_LT(Open, Stmt);
  EXPECT_LT(Stmt, Watch);
  EXPECT_LT(Watch, Close);
}

// Ids hash file-relative facts, not lines or offsets: an unrelated edit
// above keeps them.
TEST(Plan, StableIds) {
  Planned A = plan(Program, Spec);
  std::string Shifted = std::string("// a comment\nint unrelated() { return "
                                    "0; }\n") +
                        Program;
  Planned B = plan(Shifted, Spec);
  ASSERT_EQ(A.P.Sites.size(), B.P.Sites.size());
  for (size_t I = 0; I < A.P.Sites.size(); ++I) {
    EXPECT_EQ(A.P.Sites[I].Id, B.P.Sites[I].Id);
    EXPECT_EQ(A.P.Sites[I].Line + 2, B.P.Sites[I].Line);
  }
  // Distinct sites get distinct ids.
  for (size_t I = 0; I < A.P.Sites.size(); ++I)
    for (size_t J = I + 1; J < A.P.Sites.size(); ++J)
      EXPECT_NE(A.P.Sites[I].Id, A.P.Sites[J].Id);
}

TEST(Plan, MatchCounts) {
  Planned R = plan(Program, "version: 1\nprobes:\n  - at: nothing_here\n  - "
                            "at: step\n");
  ASSERT_EQ(R.P.MatchCounts.size(), 2u);
  EXPECT_EQ(R.P.MatchCounts[0], 0u);
  EXPECT_EQ(R.P.MatchCounts[1], 1u);
}

TEST(Plan, ConstexprIsSkippedWithANote) {
  Planned R = plan("constexpr int sq(int x) { return x * x; }\n",
                   "version: 1\nprobes:\n  - at: sq\n");
  EXPECT_TRUE(R.P.Sites.empty());
  ASSERT_EQ(R.P.Notes.size(), 1u);
  EXPECT_EQ(R.P.Notes[0].Message,
            "probe 'sq' skipped: 'sq': function is constexpr");
  EXPECT_EQ(R.P.Notes[0].Flag, "sonde-constexpr");
  EXPECT_EQ(R.Rewritten, "constexpr int sq(int x) { return x * x; }\n");
}

TEST(Plan, SpecCodeSpansPointIntoInsertions) {
  Planned R = plan(Program, "version: 1\nwatches:\n  - at: train > loss\n"
                            "    when: \"loss > 3\"\n");
  ASSERT_FALSE(R.P.SpecCode.empty());
  for (const SpecCodeSpan &S : R.P.SpecCode) {
    const Insertion &I = R.P.Insertions[S.InsertionIndex];
    EXPECT_EQ(I.Text.substr(S.Begin, S.End - S.Begin), "loss > 3");
    EXPECT_EQ(S.Loc.Line, 4u);
    EXPECT_EQ(S.Loc.Col, 12u);
  }
}

// Two probes on one call: the wraps nest, whatever their order.
TEST(Plan, SameExtentWrapsNest) {
  Planned R = plan("int f(int x) { return x; }\nint g(int x) {\n  f(x);\n  "
                   "return 0;\n}\n",
                   "version: 1\nprobes:\n  - at: g > f()\n    category: "
                   "user.a\n  - at: \"g > *()\"\n    category: user.b\n");
  llvm::StringRef Line3 = llvm::StringRef(R.Rewritten).split('\n').second;
  Line3 = Line3.split('\n').second.split('\n').first;
  // Both sites are g's: its table's entries 0 and 1.
  llvm::StringRef Table = "sonde_sites_";
  size_t At = Line3.find(Table);
  ASSERT_NE(At, llvm::StringRef::npos) << Line3.str();
  std::string Var = Line3.substr(At, Table.size() + 8).str();
  EXPECT_EQ(Line3.str(), "  ((void)::sonde::InsertedRegion(" + Var +
                             ", 0), ((void)::sonde::InsertedRegion(" + Var +
                             ", 1), f(x)));")
      << Line3.str();
  EXPECT_FALSE(bool(checkInsertionsOnly(
      "int f(int x) { return x; }\nint g(int x) {\n  f(x);\n  return 0;\n}\n",
      R.Rewritten)));
}

// Two probes that both need braces around one statement share them.
TEST(Plan, OneBracePairPerStatement) {
  Planned R = plan("int h(int n) {\n  int s = 0;\n  if (n)\n    s = n;\n  "
                   "return s;\n}\n",
                   "version: 1\nwatches:\n  - at: h > s\n  - at: h > $v\n");
  llvm::StringRef Line4 = llvm::StringRef(R.Rewritten);
  for (int I = 0; I < 3; ++I)
    Line4 = Line4.split('\n').second;
  Line4 = Line4.split('\n').first;
  EXPECT_EQ(Line4.count('{'), 1u) << Line4.str();
  EXPECT_EQ(Line4.count('}'), 1u) << Line4.str();
  EXPECT_EQ(Line4.count("::sonde::watchIntAt("), 2u) << Line4.str();
}

// The plan's flags are sonde/site.h's bits, and the site table holds them,
// with the kind, as the numbers sonde/site.h gives them (TableField order:
// kind, flags, line, id).
TEST(Plan, SiteFlagsInTable) {
  Planned R = plan(Program, "version: 1\nprobes:\n  - at: step\n"
                            "    enabled: false\n    mode: instant\n"
                            "watches:\n  - at: train > loss\n"
                            "    summary: hash\n");
  ASSERT_EQ(R.P.Sites.size(), 3u);
  EXPECT_EQ(R.P.Sites[0].Flags,
            unsigned(sonde::OffByDefault) | unsigned(sonde::InstantMode));
  EXPECT_EQ(R.P.Sites[1].Flags, sonde::summaryFlags(sonde::Summary::Hash));
  auto Entry = [](sonde::SiteKind K, unsigned Flags) {
    return "\\n" + std::to_string(unsigned(K)) + "\\n" + std::to_string(Flags) +
           "\\n";
  };
  EXPECT_NE(R.Rewritten.find(Entry(sonde::SiteKind::Region,
                                   sonde::OffByDefault | sonde::InstantMode)),
            std::string::npos)
      << R.Rewritten;
  EXPECT_NE(R.Rewritten.find(Entry(sonde::SiteKind::Watch,
                                   sonde::summaryFlags(sonde::Summary::Hash))),
            std::string::npos)
      << R.Rewritten;
  EXPECT_NE(R.Rewritten.find("\\nuser\\nloss\\n\\nint\\n"), std::string::npos)
      << R.Rewritten;
}

} // namespace
