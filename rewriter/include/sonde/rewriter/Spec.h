//===- sonde/rewriter/Spec.h - The probe spec -------------------*- C++ -*-===//
//
// A probe spec (probes.yaml, version 1) loaded into data. Loading checks
// everything that does not need the program: keys, version, categories,
// selectors, field values. Every error is located in the YAML text. The
// loaders are in rewriter/spec/ (SpecLoader.cpp and the files it names).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_H
#define SONDE_REWRITER_SPEC_H

#include "sonde/rewriter/Selector.h"
#include "sonde/site.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sonde {
namespace rewriter {

/// A position in the spec file, 1-based; Line 0 means unknown.
struct SpecLoc {
  unsigned Line = 0, Col = 0;
};

/// The spec section an entry comes from: regions, values, API call traces
/// (`apis:`) or model state (`state:`).
enum class Section { Probes, Watches, Apis, State };
/// `summary:`: the runtime's own enum (sonde/site.h), which sites carry.
using SummaryKind = ::sonde::Summary;
enum class ModeKind { Region, Instant };

/// One `args:` entry: a recorded name and a C++ expression.
struct SpecArg {
  std::string Name;
  std::string Expr;
  SpecLoc ExprLoc; ///< of the first character of the expression
};

/// One entry of `probes:`, `watches:`, `apis:` or `state:`. An `apis:`
/// entry is held as the call-site query `WITHIN > CALL()`.
struct Probe {
  Section Sec = Section::Probes;
  unsigned Index = 0;   ///< position in the spec, probes then watches
  std::string At;       ///< the selector text
  SpecLoc AtLoc;        ///< of the selector's first character
  Query Q;              ///< the selector, normalized
  std::string Category; ///< empty: the default (`user`)
  SpecLoc CategoryLoc;
  std::string Name; ///< `name:` override, or empty
  std::vector<SpecArg> Args;
  std::optional<bool> Context;
  std::string When;
  SpecLoc WhenLoc;
  /// `items:`: a C++ expression counting the items the region processes,
  /// recorded under sonde::ItemsArg through sonde::itemCount; empty: none.
  std::string Items;
  SpecLoc ItemsLoc;
  /// Watches: `check: finite`, a NaN or infinite value makes an alarm.
  bool CheckFinite = false;
  unsigned Every = 0; ///< 0 or 1: every hit
  /// Watches: `summary:`; `state:`: `summary:` (stats or hash); `apis:`
  /// the summary of arguments and return values (`args:`).
  SummaryKind Summary = SummaryKind::Default;
  bool Enabled = true;
  /// `apis:`: false for `args: none` (calls are recorded without their
  /// arguments).
  bool ApiArgs = true;
  /// `state:`: the C++ expression naming the model, and where it is.
  std::string Model;
  SpecLoc ModelLoc;
  ModeKind Mode = ModeKind::Region;

  /// `context:`, defaulting to true for `pipeline.*`.
  bool contextArgs() const;
  /// The category recorded: `Category` or `user`.
  std::string category() const { return Category.empty() ? "user" : Category; }
};

/// One `scope:` rule. The last rule that matches a definition wins; a
/// definition no rule matches is in scope.
struct ScopeRule {
  bool Include = true;
  std::string FileGlob;     ///< empty: any file
  std::string FunctionGlob; ///< empty: any function
};

/// `torch_ops:`: record every ATen op through libtorch's RecordFunction
/// callbacks, once per process.
struct TorchOps {
  bool On = false;
  bool Shapes = false; ///< `torch_ops: {shapes: true}`: with input shapes
  SpecLoc Loc;
};

/// A loaded spec. Copies share the text (diagnostics point into it).
struct Spec {
  std::string Path;
  unsigned Version = 1;
  std::vector<ScopeRule> Scope;
  TorchOps Ops;
  std::vector<Probe> Probes;
  std::shared_ptr<llvm::SourceMgr> SM; ///< holds the YAML text

  /// Whether a definition of `QualifiedName` in `File` is instrumented.
  bool inScope(llvm::StringRef File, llvm::StringRef QualifiedName) const;
  /// The spec location `Offset` characters into `P`'s selector.
  SpecLoc selectorLoc(const Probe &P, unsigned Offset) const;
  /// A located message (`probes.yaml:L:C: warning: ...`) with a caret
  /// under `Length` characters and an optional replacement.
  llvm::SMDiagnostic diag(SpecLoc L, llvm::SourceMgr::DiagKind Kind,
                          const llvm::Twine &Msg, unsigned Length = 0,
                          llvm::StringRef FixIt = "") const;
};

/// The categories of DFTracer's AI logging, and parents, that a spec may
/// name; `<parent>.init` and `user.<anything>` are accepted too.
llvm::ArrayRef<const char *> knownCategories();

/// Parses a spec from `Text`; `Path` names it in messages. On failure the
/// error is a SpecDiagnostics with every problem found, located.
llvm::Expected<Spec> parseSpec(llvm::StringRef Text, llvm::StringRef Path);

/// Reads and parses the spec at `Path`.
llvm::Expected<Spec> loadSpec(llvm::StringRef Path);

} // namespace rewriter
} // namespace sonde

#endif
