//===- InvariantsFileTest.cpp - The invariants file, written and read -----===//
//
// What `sonde infer` writes, `sonde check` reads back unchanged (strings
// with quotes, backslashes and control characters, numbers to the last
// bit); and each malformed file is refused with its line and the reason.
//
//===----------------------------------------------------------------------===//

#include "invariants/Invariants.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace sonde::trace::inv;

namespace {

std::string tempPath() {
  static int Count = 0;
  return ::testing::TempDir() + "/inv-" + std::to_string(getpid()) + "-" +
         std::to_string(Count++) + ".yaml";
}

std::string writeText(const std::string &Text) {
  std::string Path = tempPath();
  std::ofstream(Path) << Text;
  return Path;
}

TEST(InvariantsFile, RoundTrips) {
  std::vector<Invariant> In(3);
  In[0].Family = "order";
  In[0].Relation = "precedes";
  In[0].Scope = "dataloader.fetch/fetch.block in f at a.cpp:3";
  In[0].Other = "compute/zero_grad in f at a.cpp:4";
  In[0].Subject = "compute.step/step in f at a.cpp:6";
  In[0].Support = 252;
  In[0].Text = "a \"quoted\" back\\slash\tand\nlines \x01";
  In[1].Family = "value";
  In[1].Relation = "range";
  In[1].Subject = "user/loss in f at a.cpp:9";
  In[1].Lo = -0.1234567890123456789;
  In[1].Hi = 3e300;
  In[1].Support = 7;
  In[2].Family = "argument";
  In[2].Relation = "same";
  In[2].Subject = "x arg flag";
  In[2].Value = ""; // an empty value is a value
  In[2].Support = 11;
  std::string Path = tempPath();
  std::FILE *F = std::fopen(Path.c_str(), "w");
  ASSERT_NE(F, nullptr);
  writeInvariants(In, {"a.sonde", "dir/b \"2\".sonde"}, InferOptions{}, F);
  std::fclose(F);
  std::vector<Invariant> Out;
  std::string Error;
  ASSERT_TRUE(readInvariants(Path, Out, Error)) << Error;
  ASSERT_EQ(Out.size(), 3u);
  for (size_t I = 0; I < 3; ++I) {
    EXPECT_EQ(Out[I].Family, In[I].Family);
    EXPECT_EQ(Out[I].Relation, In[I].Relation);
    EXPECT_EQ(Out[I].Scope, In[I].Scope);
    EXPECT_EQ(Out[I].Other, In[I].Other);
    EXPECT_EQ(Out[I].Subject, In[I].Subject);
    EXPECT_EQ(Out[I].Value, In[I].Value);
    EXPECT_EQ(Out[I].Lo, In[I].Lo);
    EXPECT_EQ(Out[I].Hi, In[I].Hi);
    EXPECT_EQ(Out[I].Support, In[I].Support);
    EXPECT_EQ(Out[I].Text, In[I].Text);
  }
  EXPECT_GT(Out[1].Line, Out[0].Line);
  std::remove(Path.c_str());
}

struct Bad {
  const char *Name; ///< the test's name
  const char *Text;
  const char *Error;
};

// GoogleTest prints a parameter through a function of this name.
// NOLINTNEXTLINE(readability-identifier-naming)
void PrintTo(const Bad &B, std::ostream *OS) { *OS << B.Name; }

class InvariantsFileErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(InvariantsFileErrors, SaysWhereAndWhy) {
  std::string Path = writeText(GetParam().Text);
  std::vector<Invariant> Out;
  std::string Error;
  EXPECT_FALSE(readInvariants(Path, Out, Error));
  EXPECT_EQ(Error, Path + GetParam().Error);
  std::remove(Path.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Files, InvariantsFileErrors,
    ::testing::Values(
        Bad{"Empty", "", ": no 'version: 1' line: not a sonde invariants file"},
        Bad{"Version2", "version: 2\n",
            ":1: version 2 (this sonde reads version 1)"},
        Bad{"UnknownTopKey", "version: 1\nfoo: 3\n", ":2: unknown key 'foo'"},
        Bad{"PrecedesWithoutScope",
            "version: 1\ninvariants:\n  - family: order\n    relation: "
            "precedes\n    subject: \"x\"\n",
            ":3: the invariant at line 3 lacks what 'precedes' needs "
            "(docs/invariants.md)"},
        Bad{"UnknownRelation",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "sideways\n    subject: \"x\"\n",
            ":3: unknown relation 'value.sideways'"},
        Bad{"UnclosedString",
            "version: 1\ninvariants:\n  - family: value\n    subject: "
            "\"x\n",
            ":4: a string with no closing quote"},
        Bad{"LoNotANumber",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "range\n    subject: \"x\"\n    lo: low\n",
            ":6: 'lo' is not a number: 'low'"},
        Bad{"TextAfterQuote",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "finite\n    subject: \"x\" y\n",
            ":5: text after the closing quote"},
        Bad{"NoFamily", "version: 1\ninvariants:\n  - relation: finite\n",
            ":3: the invariant at line 3 needs family, relation and "
            "subject"},
        Bad{"SupportNotACount",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "finite\n    subject: \"x\"\n    support: 1e400\n",
            ":6: 'support' is not a count: '1e400'"},
        Bad{"HiNaN",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "range\n    subject: \"x\"\n    hi: nan\n",
            ":6: 'hi' is not a number: 'nan'"},
        Bad{"Tab", "version: 1\n\tfoo: 1\n",
            ":2: a tab (YAML indents with spaces)"},
        Bad{"UnknownKey",
            "version: 1\ninvariants:\n  - family: value\n    relation: "
            "finite\n    subject: \"x\"\n    colour: red\n",
            ":6: unknown key 'colour'"}),
    [](const ::testing::TestParamInfo<Bad> &I) { return I.param.Name; });

TEST(InvariantsFile, MissingFileSaysWhy) {
  std::vector<Invariant> Out;
  std::string Error;
  EXPECT_FALSE(readInvariants("/nonexistent/inv.yaml", Out, Error));
  EXPECT_EQ(Error, "/nonexistent/inv.yaml: cannot read: No such file or "
                   "directory");
}

} // namespace
