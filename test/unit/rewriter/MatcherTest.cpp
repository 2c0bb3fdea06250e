//===- MatcherTest.cpp - The table of selector kinds ----------------------===//

#include "sonde/rewriter/Matcher.h"
#include "sonde/rewriter/Spec.h"

#include "gtest/gtest.h"

#include <string>

using namespace sonde::rewriter;

namespace {

/// The name of the one kind that handles `At` (in `Section`), or why not.
std::string kindOf(const char *At, const char *Section = "probes") {
  std::string Sec = Section;
  std::string Yaml = "version: 1\n" + Sec + ":\n  - " +
                     (Sec == "apis" ? "call" : "at") + ": \"" + At + "\"\n" +
                     (Sec == "state" ? "    model: m\n" : "");
  auto S = parseSpec(Yaml, "probes.yaml");
  if (!S)
    return "spec error: " + llvm::toString(S.takeError());
  std::string Found;
  for (const auto &K : selectorKinds())
    if (K->handles(S->Probes.front())) {
      if (!Found.empty())
        return "two kinds: " + Found + " and " + K->name();
      Found = K->name();
    }
  return Found.empty() ? "no kind" : Found;
}

// Every focus a selector can have is handled by exactly one kind.
TEST(Matcher, OneKindPerFocus) {
  EXPECT_EQ(kindOf("Net::forward"), "function-region");
  EXPECT_EQ(kindOf("train > Net::forward"), "function-region");
  EXPECT_EQ(kindOf("f(!#enter, !!#exit)"), "range");
  EXPECT_EQ(kindOf("f > g()"), "call-site");
  EXPECT_EQ(kindOf("*::to()"), "call-site");
  EXPECT_EQ(kindOf("f > #loop_epoch"), "loop");
  EXPECT_EQ(kindOf("f > #loop@3"), "loop");
  EXPECT_EQ(kindOf("f > #endloop_b", "watches"), "loop");
  EXPECT_EQ(kindOf("f > #enter"), "entry-exit");
  EXPECT_EQ(kindOf("f > #exit"), "entry-exit");
  EXPECT_EQ(kindOf("f > #error"), "entry-exit");
  EXPECT_EQ(kindOf("f > #value", "watches"), "return-value");
  EXPECT_EQ(kindOf("f > loss", "watches"), "variable");
  EXPECT_EQ(kindOf("f > $t:float", "watches"), "variable");
  EXPECT_EQ(kindOf("f > *", "watches"), "variable");
  EXPECT_EQ(kindOf("*::step", "apis"), "api-call");
  EXPECT_EQ(kindOf("f > *::step()", "state"), "state");
  EXPECT_EQ(kindOf("f > #exit", "state"), "state");
  EXPECT_EQ(kindOf("f > #endloop_b", "state"), "state");
}

} // namespace
