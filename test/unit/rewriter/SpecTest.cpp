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

//--- apis:, state:, torch_ops: ----------------------------------------------

TEST(Spec, MlSectionsLoad) {
  const char *Yaml = R"y(version: 1
torch_ops: {shapes: true}
apis:
  - call: "*::step"
    within: "train > train_epoch"
    args: stats
    every: 5
  - call: "torch::nn::functional::*()"
    args: none
    enabled: false
state:
  - at: "train_epoch > *::step()"
    model: "model"
    summary: hash
    every: 10
)y";
  auto S = parseSpec(Yaml, "probes.yaml");
  ASSERT_TRUE(bool(S)) << errorsOf(Yaml);
  EXPECT_TRUE(S->Ops.On);
  EXPECT_TRUE(S->Ops.Shapes);
  ASSERT_EQ(S->Probes.size(), 3u);
  const Probe &Step = S->Probes[0];
  EXPECT_EQ(Step.Sec, Section::Apis);
  EXPECT_EQ(Step.At, "train > train_epoch > *::step()");
  EXPECT_EQ(Step.Q.Host.Glob, "train_epoch");
  ASSERT_EQ(Step.Q.Context.size(), 1u);
  EXPECT_EQ(Step.Q.Context[0].Glob, "train");
  EXPECT_EQ(Step.Q.FocusItem.Kind, TargetKind::Call);
  EXPECT_EQ(Step.Q.FocusItem.Callee.Glob, "*::step");
  EXPECT_EQ(Step.Summary, SummaryKind::Stats);
  EXPECT_TRUE(Step.ApiArgs);
  EXPECT_EQ(Step.Every, 5u);
  EXPECT_EQ(Step.AtLoc.Line, 4u);
  EXPECT_EQ(Step.AtLoc.Col, 12u);
  const Probe &Fn = S->Probes[1];
  EXPECT_EQ(Fn.Q.Host.Glob, "*"); // no `within`: every function
  EXPECT_EQ(Fn.Q.FocusItem.Callee.Glob, "torch::nn::functional::*");
  EXPECT_FALSE(Fn.ApiArgs);
  EXPECT_FALSE(Fn.Enabled);
  const Probe &State = S->Probes[2];
  EXPECT_EQ(State.Sec, Section::State);
  EXPECT_EQ(State.Model, "model");
  EXPECT_EQ(State.ModelLoc.Line, 13u);
  EXPECT_EQ(State.ModelLoc.Col, 13u);
  EXPECT_EQ(State.Summary, SummaryKind::Hash);
  EXPECT_EQ(State.Every, 10u);
}

TEST(Spec, TorchOpsForms) {
  auto On = parseSpec("version: 1\ntorch_ops: true\n", "probes.yaml");
  ASSERT_TRUE(bool(On));
  EXPECT_TRUE(On->Ops.On);
  EXPECT_FALSE(On->Ops.Shapes);
  auto Off = parseSpec("version: 1\ntorch_ops: false\n", "probes.yaml");
  ASSERT_TRUE(bool(Off));
  EXPECT_FALSE(Off->Ops.On);
  std::string E = errorsOf("version: 1\ntorch_ops: {shape: true}\n");
  EXPECT_NE(E.find("probes.yaml:2:13: error: unknown torch_ops key 'shape'; "
                   "did you mean 'shapes'?"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\ntorch_ops: sometimes\n");
  EXPECT_NE(E.find("probes.yaml:2:12: error: 'torch_ops' is 'true' or "
                   "'false'"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\ntorch_op: true\n");
  EXPECT_NE(E.find("unknown top-level key 'torch_op'; did you mean "
                   "'torch_ops'?"),
            std::string::npos)
      << E;
}

TEST(Spec, ApisErrorsAreLocated) {
  std::string E = errorsOf("version: 1\napis:\n  - call: \"*::step\"\n"
                           "    whithin: train\n");
  EXPECT_NE(E.find("probes.yaml:4:5: error: unknown apis key 'whithin'; did "
                   "you mean 'within'?"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\napis:\n  - within: train\n");
  EXPECT_NE(E.find("probes.yaml:3:5: error: 'apis' entry has no 'call'"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\napis:\n  - call: \"*::step\"\n    args: stat\n");
  EXPECT_NE(E.find("probes.yaml:4:11: error: unknown args 'stat'; did you "
                   "mean 'stats'?"),
            std::string::npos)
      << E;
  // A selector error inside `call` points into it.
  E = errorsOf("version: 1\napis:\n  - call: \"a >> b\"\n");
  EXPECT_NE(E.find("probes.yaml:3:14: error: '>>'"), std::string::npos) << E;
  E = errorsOf("version: 1\napis:\n  - call: \"train > step\"\n");
  EXPECT_NE(E.find("probes.yaml:3:12: error: 'call' is a callee glob"),
            std::string::npos)
      << E;
  E = errorsOf(
      "version: 1\napis:\n  - call: step\n    within: \"f > loss:int\"\n");
  EXPECT_NE(E.find("probes.yaml:4:14: error: 'within' is a function selector"),
            std::string::npos)
      << E;
  // An entry gives each key once, under `apis:` as under `probes:`.
  E = errorsOf("version: 1\napis:\n  - call: \"*::step\"\n    call: f\n");
  EXPECT_NE(E.find("probes.yaml:4:5: error: duplicate key 'call' (first "
                   "given on line 3)"),
            std::string::npos)
      << E;
  // A YAML anchor where the value should be is explained, as under
  // `probes:`.
  E = errorsOf("version: 1\napis:\n  - call: \"*::step\"\n    when: &x\n");
  EXPECT_NE(E.find("probes.yaml:4:5: error: 'when' has no value; '&' after "
                   "'when:' starts a YAML anchor: write the value in quotes"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\napis:\n  - call: &c\n");
  EXPECT_NE(E.find("probes.yaml:3:5: error: 'call' has no value; '&' after "
                   "'call:' starts a YAML anchor: write the value in quotes"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\napis: {call: step}\n");
  EXPECT_NE(E.find("probes.yaml:2:7: error: 'apis' is a list of entries "
                   "('- call: ...')"),
            std::string::npos)
      << E;
}

TEST(Spec, StateErrorsAreLocated) {
  std::string E = errorsOf("version: 1\nstate:\n  - at: \"f > *::step()\"\n"
                           "    modle: net\n");
  EXPECT_NE(E.find("probes.yaml:4:5: error: unknown state key 'modle'; did "
                   "you mean 'model'?"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("probes.yaml:3:5: error: state entry has no 'model'"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\nstate:\n  - at: \"f > loss\"\n    model: net\n");
  EXPECT_NE(E.find("probes.yaml:3:10: error: 'f > loss' is not a point where "
                   "state can be recorded"),
            std::string::npos)
      << E;
  E = errorsOf("version: 1\nstate:\n  - at: \"f > #exit\"\n    model: net\n"
               "    summary: shape\n");
  EXPECT_NE(E.find("probes.yaml:5:14: error: unknown summary 'shape'; "
                   "expected stats, hash"),
            std::string::npos)
      << E;
  // Probe keys that mean nothing for state are refused.
  E = errorsOf("version: 1\nstate:\n  - at: \"f > #exit\"\n    model: net\n"
               "    mode: instant\n");
  EXPECT_NE(E.find("probes.yaml:5:5: error: unknown state key 'mode'"),
            std::string::npos)
      << E;
}

// A spec that is not text is refused at its first bad byte or NUL, whichever
// comes first; columns count bytes, and valid sequences before it pass.
TEST(Spec, NotTextIsLocatedAtTheFirstBadByte) {
  using namespace std::string_literals;
  auto ExpectError = [](const std::string &Text, const std::string &Want) {
    EXPECT_NE(errorsOf(Text).find("probes.yaml:" + Want), std::string::npos)
        << Want;
  };
  const std::string Nul = "error: the spec holds a NUL byte";
  const std::string Byte = "error: the spec is not UTF-8 text (byte 0x";
  ExpectError("version: 1\n\0\xff"s, "2:1: " + Nul);
  ExpectError("version: 1\n\xff\0"s, "2:1: " + Byte + "ff)");
  // A surrogate and an overlong '/' are not UTF-8 either.
  ExpectError("version: 1\n# \xed\xa0\x80\n", "2:3: " + Byte + "ed)");
  ExpectError("version: 1\n# \xc0\xaf\n", "2:3: " + Byte + "c0)");
  ExpectError("version: 1\n# caf\xc3\xa9 \xf0\x9f\x98\x80 \x80\n",
              "2:14: " + Byte + "80)");
  ExpectError("version: 1\n# caf\xc3\xa9 \0"s, "2:9: " + Nul);
}

} // namespace
