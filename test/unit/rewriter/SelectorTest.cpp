//===- SelectorTest.cpp - The selector language ---------------------------===//

#include "sonde/rewriter/Selector.h"

#include "gtest/gtest.h"

using namespace sonde::rewriter;

namespace {

Query parseOk(llvm::StringRef Text) {
  auto S = parseSelector(Text);
  if (!S) {
    ADD_FAILURE() << "parse failed: " << llvm::toString(S.takeError());
    return {};
  }
  auto Q = normalize(*S);
  if (!Q) {
    ADD_FAILURE() << "normalize failed: " << llvm::toString(Q.takeError());
    return {};
  }
  return *Q;
}

/// The error's offset and message, whether from parsing or normalizing.
std::pair<unsigned, std::string> parseErr(llvm::StringRef Text) {
  auto S = parseSelector(Text);
  llvm::Error E = llvm::Error::success();
  if (!S) {
    E = S.takeError();
  } else {
    auto Q = normalize(*S);
    if (Q)
      return {~0u, "no error"};
    E = Q.takeError();
  }
  std::pair<unsigned, std::string> Out;
  llvm::handleAllErrors(std::move(E), [&](const SelectorError &SE) {
    Out = {SE.Offset, SE.Message};
  });
  return Out;
}

TEST(Selector, Function) {
  Query Q = parseOk("Net::forward");
  EXPECT_EQ(Q.Focus, FocusKind::Function);
  EXPECT_EQ(Q.Host.Glob, "Net::forward");
  EXPECT_TRUE(Q.Context.empty());
}

TEST(Selector, VariableInFunction) {
  Query Q = parseOk("train_epoch > loss");
  EXPECT_EQ(Q.Focus, FocusKind::Item);
  EXPECT_EQ(Q.Host.Glob, "train_epoch");
  EXPECT_EQ(Q.FocusItem.Kind, TargetKind::Variable);
  EXPECT_EQ(Q.FocusItem.Name, "loss");
}

TEST(Selector, ContextFrames) {
  Query Q = parseOk("main > train > step > loss");
  ASSERT_EQ(Q.Context.size(), 2u);
  EXPECT_EQ(Q.Context[0].Glob, "main");
  EXPECT_EQ(Q.Context[1].Glob, "train");
  EXPECT_EQ(Q.Host.Glob, "step");
}

TEST(Selector, FunctionWithContext) {
  Query Q = parseOk("train > Net::forward");
  EXPECT_EQ(Q.Focus, FocusKind::Function);
  ASSERT_EQ(Q.Context.size(), 1u);
  EXPECT_EQ(Q.Host.Glob, "Net::forward");
}

TEST(Selector, Metas) {
  EXPECT_EQ(parseOk("f > #enter").FocusItem.Meta, MetaKind::Enter);
  EXPECT_EQ(parseOk("f > #exit").FocusItem.Meta, MetaKind::Exit);
  EXPECT_EQ(parseOk("f > #value").FocusItem.Meta, MetaKind::Value);
  EXPECT_EQ(parseOk("f > #error").FocusItem.Meta, MetaKind::Error);
  EXPECT_EQ(parseOk("f > #loop").FocusItem.Meta, MetaKind::AnyLoop);
  Query L = parseOk("f > #loop_epoch");
  EXPECT_EQ(L.FocusItem.Meta, MetaKind::LoopVar);
  EXPECT_EQ(L.FocusItem.Name, "epoch");
  Query E = parseOk("f > #endloop_batch as step");
  EXPECT_EQ(E.FocusItem.Meta, MetaKind::EndLoopVar);
  EXPECT_EQ(E.FocusItem.Name, "batch");
  EXPECT_EQ(E.FocusItem.As, "step");
  Query At = parseOk("f > #loop@42");
  EXPECT_EQ(At.FocusItem.Meta, MetaKind::LoopAtLine);
  EXPECT_EQ(At.FocusItem.Line, 42u);
}

TEST(Selector, DollarStarAndType) {
  Query D = parseOk("train_epoch > $t:torch::Tensor");
  EXPECT_EQ(D.FocusItem.Kind, TargetKind::AnyVariable);
  EXPECT_EQ(D.FocusItem.Name, "t");
  EXPECT_EQ(D.FocusItem.Type, "torch::Tensor");
  Query S = parseOk("f > *:float");
  EXPECT_EQ(S.FocusItem.Kind, TargetKind::Star);
  EXPECT_EQ(S.FocusItem.Type, "float");
  Query T = parseOk("f > x:std::vector<float> as xs");
  EXPECT_EQ(T.FocusItem.Type, "std::vector<float>");
  EXPECT_EQ(T.FocusItem.As, "xs");
}

TEST(Selector, Captures) {
  Query Q = parseOk("train_epoch(inp as batch, epoch) > #endloop_inp as step");
  ASSERT_EQ(Q.Captures.size(), 2u);
  EXPECT_EQ(Q.Captures[0].Name, "inp");
  EXPECT_EQ(Q.Captures[0].As, "batch");
  EXPECT_EQ(Q.Captures[1].Name, "epoch");
}

TEST(Selector, Range) {
  Query Q = parseOk("train_epoch(!#loop_batch, !!#endloop_batch)");
  EXPECT_EQ(Q.Focus, FocusKind::Range);
  EXPECT_EQ(Q.RangeStart.Meta, MetaKind::LoopVar);
  EXPECT_EQ(Q.RangeEnd.Meta, MetaKind::EndLoopVar);
}

TEST(Selector, CallSites) {
  Query Q = parseOk("train_epoch > *::backward()");
  EXPECT_EQ(Q.FocusItem.Kind, TargetKind::Call);
  EXPECT_EQ(Q.FocusItem.Callee.Glob, "*::backward");
  EXPECT_EQ(parseOk("f > g() as G").FocusItem.As, "G");
  // `*` before another frame is every function.
  Query Star = parseOk("* > #loop");
  EXPECT_EQ(Star.Host.Glob, "*");
  EXPECT_EQ(Star.FocusItem.Meta, MetaKind::AnyLoop);
  // Alone, a call-site item means its calls in every function.
  Query Any = parseOk("*::to()");
  EXPECT_EQ(Any.Host.Glob, "*");
  EXPECT_EQ(Any.FocusItem.Callee.Glob, "*::to");
}

TEST(Selector, FileGlobAndOperators) {
  Query Q = parseOk("/*/models/*.cpp/Net::forward");
  EXPECT_EQ(Q.Host.FileGlob, "*/models/*.cpp");
  EXPECT_EQ(Q.Host.Glob, "Net::forward");
  EXPECT_EQ(parseOk("Net::operator()").Host.Glob, "Net::operator()");
  EXPECT_EQ(parseOk("Net::~Net").Host.Glob, "Net::~Net");
  EXPECT_EQ(parseOk("*::operator<<").Host.Glob, "*::operator<<");
}

TEST(Selector, Globs) {
  FuncGlob G{"*::forward", "", 0, 0};
  EXPECT_TRUE(G.matches("Net::forward"));
  EXPECT_TRUE(G.matches("ns::Net::forward"));
  EXPECT_FALSE(G.matches("forward"));
  FuncGlob U{"forward", "", 0, 0};
  EXPECT_TRUE(U.matches("Net::forward"));
  EXPECT_TRUE(U.matches("forward"));
  EXPECT_FALSE(U.matches("Net::forwards"));
  FuncGlob N{"ns::*", "", 0, 0};
  EXPECT_TRUE(N.matches("ns::f"));
  EXPECT_TRUE(N.matches("ns::A::g"));
  EXPECT_FALSE(N.matches("other::f"));
  FuncGlob F{"f", "train.cpp", 0, 0};
  EXPECT_TRUE(F.matchesFile("src/train.cpp"));
  EXPECT_FALSE(F.matchesFile("src/eval.cpp"));
}

// Refused ptera forms say what to write instead.
TEST(Selector, RefusedForms) {
  auto E = parseErr("train >> loss");
  EXPECT_EQ(E.first, 6u);
  EXPECT_NE(E.second.find("use '>'"), std::string::npos) << E.second;
  E = parseErr("[[train]] > loss");
  EXPECT_NE(E.second.find("'[[...]]' is not supported"), std::string::npos);
  E = parseErr("f > loss=3");
  EXPECT_EQ(E.first, 8u);
  EXPECT_NE(E.second.find("when:"), std::string::npos);
  E = parseErr("f > loss~positive");
  EXPECT_NE(E.second.find("'~predicate'"), std::string::npos);
  E = parseErr("f(!!x)");
  EXPECT_NE(E.second.find("total probes are not supported"), std::string::npos);
  E = parseErr("f > x:@tag");
  EXPECT_NE(E.second.find("tags and overrides"), std::string::npos);
}

TEST(Selector, Errors) {
  auto E = parseErr("f > #lop_epoch");
  EXPECT_EQ(E.first, 4u);
  EXPECT_NE(E.second.find("unknown meta '#lop_epoch'"), std::string::npos);
  E = parseErr("f > #entr");
  EXPECT_NE(E.second.find("did you mean '#enter'?"), std::string::npos);
  E = parseErr("f(x");
  EXPECT_NE(E.second.find("expected ')'"), std::string::npos);
  E = parseErr("loss");
  EXPECT_EQ(E.second, "no error"); // a function named loss
  E = parseErr("#enter");
  EXPECT_NE(E.second.find("needs the function it is in"), std::string::npos);
  E = parseErr("f > ");
  EXPECT_NE(E.second.find("expected a frame after '>'"), std::string::npos);
  E = parseErr("f(x) > g > y");
  EXPECT_NE(E.second.find("captures are taken in the frame"),
            std::string::npos);
  E = parseErr("f > #loop@x");
  EXPECT_NE(E.second.find("line number"), std::string::npos);
  E = parseErr("f(!x)");
  EXPECT_NE(E.second.find("needs an end"), std::string::npos);
  E = parseErr("");
  EXPECT_EQ(E.second, "empty selector");
  // Found by fuzz-selector: a range followed by a bare last frame (read as
  // a variable) has no item list to quote.
  E = parseErr("pick(!x, !!y)>l");
  EXPECT_NE(E.second.find("is the focus itself; drop '> l'"),
            std::string::npos);
}

} // namespace
