//===- SpecTest.cpp - Loading probes.yaml ---------------------------------===//

#include "sonde/rewriter/Spec.h"
#include "sonde/rewriter/Diag.h"

#include "gtest/gtest.h"

using namespace sonde::rewriter;

namespace {

/// Every message of a failed load, rendered as the CLI prints them.
std::string errorsOf(llvm::StringRef Yaml) {
  auto S = parseSpec(Yaml, "probes.yaml");
  if (S)
    return "";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::handleAllErrors(S.takeError(),
                        [&](const SpecDiagnostics &D) { D.log(OS); });
  return OS.str();
}

TEST(Spec, LoadsTheDesignExample) {
  const char *Yaml = R"(version: 1
scope:
  - exclude: {file: "*/third_party/*"}
  - exclude: {function: "*::operator<<"}
probes:
  - at: "train"
    category: pipeline.train
  - at: "train > #loop_epoch"
    category: pipeline.epoch
    args: {epoch: epoch}
  - at: "Net::forward"
    category: compute.forward
    name: fwd
    enabled: false
    mode: instant
watches:
  - at: "train_epoch > loss"
    every: 10
  - at: "train_epoch > $t:torch::Tensor"
    summary: stats
    when: "batch_idx % 100 == 0"
)";
  auto S = parseSpec(Yaml, "probes.yaml");
  ASSERT_TRUE(bool(S)) << errorsOf(Yaml);
  ASSERT_EQ(S->Probes.size(), 5u);
  EXPECT_EQ(S->Scope.size(), 2u);
  EXPECT_FALSE(S->inScope("src/third_party/x.cpp", "f"));
  EXPECT_FALSE(S->inScope("train.cpp", "Net::operator<<"));
  EXPECT_TRUE(S->inScope("train.cpp", "Net::forward"));
  const Probe &Epoch = S->Probes[1];
  EXPECT_EQ(Epoch.Category, "pipeline.epoch");
  ASSERT_EQ(Epoch.Args.size(), 1u);
  EXPECT_EQ(Epoch.Args[0].Name, "epoch");
  EXPECT_EQ(Epoch.Args[0].ExprLoc.Line, 10u);
  EXPECT_EQ(Epoch.Args[0].ExprLoc.Col, 19u);
  EXPECT_TRUE(Epoch.contextArgs()); // pipeline.* defaults to context
  const Probe &Fwd = S->Probes[2];
  EXPECT_FALSE(Fwd.Enabled);
  EXPECT_EQ(Fwd.Mode, ModeKind::Instant);
  EXPECT_EQ(Fwd.Name, "fwd");
  EXPECT_FALSE(Fwd.contextArgs());
  EXPECT_EQ(S->Probes[3].Every, 10u);
  EXPECT_EQ(S->Probes[3].Sec, Section::Watches);
  EXPECT_EQ(S->Probes[4].Summary, SummaryKind::Stats);
  EXPECT_EQ(S->Probes[4].WhenLoc.Line, 21u);
  EXPECT_EQ(S->Probes[4].WhenLoc.Col, 12u); // after the quote
  EXPECT_EQ(S->Probes[4].AtLoc.Col, 10u);
}

TEST(Spec, UnknownKeyWithSuggestion) {
  EXPECT_EQ(errorsOf("version: 1\nprobes:\n  - at: f\n    categroy: compute\n"),
            "probes.yaml:4:5: error: unknown probe key 'categroy'; did you "
            "mean 'category'?\n"
            "    categroy: compute\n"
            "    ^~~~~~~~\n"
            "    category\n");
}

TEST(Spec, UnknownTopLevelKey) {
  std::string E = errorsOf("version: 1\nprobe:\n  - at: f\n");
  EXPECT_NE(E.find("probes.yaml:2:1: error: unknown top-level key 'probe'; "
                   "did you mean 'probes'?"),
            std::string::npos)
      << E;
}

TEST(Spec, CategoryNearMiss) {
  std::string E = errorsOf(
      "version: 1\nprobes:\n  - at: f\n    category: compute.foward\n");
  EXPECT_NE(E.find("probes.yaml:4:15: error: unknown category "
                   "'compute.foward'; did you mean 'compute.forward'?"),
            std::string::npos)
      << E;
}

TEST(Spec, CategoriesAccepted) {
  for (const char *C : {"compute", "compute.init", "user.anything",
                        "comm.all_to_all", "checkpoint.restart"})
    EXPECT_EQ(errorsOf(std::string("version: 1\nprobes:\n  - at: f\n    "
                                   "category: ") +
                       C + "\n"),
              "")
        << C;
  EXPECT_NE(errorsOf("version: 1\nprobes:\n  - at: f\n    category: gpu\n"),
            "");
}

TEST(Spec, Version) {
  std::string E = errorsOf("version: 2\nprobes: []\n");
  EXPECT_NE(E.find("probes.yaml:1:10: error: unsupported spec version 2; "
                   "this sonde reads version 1"),
            std::string::npos)
      << E;
  EXPECT_NE(errorsOf("probes: []\n").find("missing 'version: 1'"),
            std::string::npos);
}

TEST(Spec, SelectorErrorsAreLocatedInTheSpec) {
  std::string E =
      errorsOf("version: 1\nprobes:\n  - at: \"train >> #loop_epoch\"\n");
  EXPECT_NE(E.find("probes.yaml:3:16: error: '>>' (immediate caller) is not "
                   "supported"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("\n               ^~\n"), std::string::npos) << E;
}

TEST(Spec, EveryErrorsAreCollected) {
  std::string E = errorsOf("version: 1\nprobes:\n  - at: f\n    every: 0\n"
                           "    mode: burst\n  - category: compute\n");
  EXPECT_NE(E.find("4:12: error: 'every' is a positive integer"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("5:11: error: unknown mode 'burst'"), std::string::npos)
      << E;
  EXPECT_NE(E.find("6:5: error: probe has no 'at' selector"), std::string::npos)
      << E;
}

TEST(Spec, SectionsHoldTheRightFoci) {
  EXPECT_NE(errorsOf("version: 1\nprobes:\n  - at: f > loss\n")
                .find("is a value; move this probe under 'watches:'"),
            std::string::npos);
  EXPECT_NE(errorsOf("version: 1\nwatches:\n  - at: Net::forward\n")
                .find("is a region; move this probe under 'probes:'"),
            std::string::npos);
  EXPECT_NE(errorsOf("version: 1\nprobes:\n  - at: f\n    summary: stats\n")
                .find("'summary' applies to watches only"),
            std::string::npos);
}

TEST(Spec, InvalidYamlIsLocated) {
  std::string E = errorsOf("version: 1\nprobes:\n  - at: [f\n");
  EXPECT_NE(E.find("probes.yaml:"), std::string::npos) << E;
  EXPECT_NE(E.find("error: invalid YAML"), std::string::npos) << E;
}

TEST(Spec, ArgsAndBooleans) {
  std::string E = errorsOf("version: 1\nprobes:\n  - at: f\n    args: x\n"
                           "    context: maybe\n");
  EXPECT_NE(E.find("'args' is a map of name to C++ expression"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("5:14: error: 'context' is 'true' or 'false'"),
            std::string::npos)
      << E;
}

} // namespace
