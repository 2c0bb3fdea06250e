//===- Instrumenter.h - Compiling instrumented text in place ----*- C++ -*-===//
//
// What the plugin does to one compile: compute the engine's plan on the
// untouched main file and have the real compile (code generation, debug
// info, dependency files) see the instrumented program instead. Two ways,
// same plan: a split compile (SplitCompile.h) forks the real compile once
// the headers are parsed, and the child computes the plan; the nested parse
// parses the whole file once more in a syntax-only compiler instance before
// the real parse starts, and is what runs when a split is not possible.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_PLUGIN_INSTRUMENTER_H
#define SONDE_PLUGIN_INSTRUMENTER_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"
#include "sonde/rewriter/frontdoor/PlanAction.h"

#include "clang/Basic/FileEntry.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>

namespace clang {
class ASTConsumer;
class CompilerInstance;
class SourceManager;
} // namespace clang

namespace sonde {
namespace plugin {

/// What the plugin was asked to do (its -fplugin-arg-sonde-* arguments).
struct Options {
  std::string SpecPath;
  std::string SpecSha256;     ///< `spec-sha256=`: the spec must hash to this
  bool Strict = false;        ///< skipped sites are errors
  std::string ListSites;      ///< write the plan's sites here
  std::string RuntimeInclude; ///< where sonde/sonde.h is; empty: found
  bool NestedParse = false;   ///< `nested-parse`: never split the compile
  bool NoPrewarm = false;     ///< `no-prewarm`: the split loads nothing early
};

/// Called once with the plan of a main file that was planned (not when the
/// source or the spec has errors): `list-sites=` and `match-dir=` output.
using PlanSink =
    std::function<void(const rewriter::Spec &, const rewriter::Plan &)>;

/// One main file being instrumented: what both ways share. It lives as long
/// as the compile (the consumer and the split's pragma handler hold it).
struct Job {
  Job(clang::CompilerInstance &CI, clang::FileEntryRef MainFile)
      : CI(CI), MainFile(MainFile) {}
  clang::CompilerInstance &CI;
  clang::FileEntryRef MainFile;
  std::string InFile;
  rewriter::Spec S;
  Options Opts;
  std::string Header; ///< sonde/sonde.h
  PlanSink Done;
  std::string Original; ///< the main file's text the plan is computed on
  bool Preprocessed = false;
};

/// Receives the text of the instrumented main file and the runtime headers
/// (absolute paths) it needs before it; makes the real compile parse them
/// and returns the FileID that holds the text (invalid: it could not).
using Placer = std::function<clang::FileID(
    llvm::StringRef Rewritten, llvm::ArrayRef<std::string> Headers)>;

/// True while the nested parse runs on this thread: the plugin, which clang
/// instantiates for every compile, must not instrument its own nested parse.
bool inNestedParse();

/// Sets up the instrumentation of CI's main file for `J` and returns the
/// plugin's consumer for the real compile.
/// EXPECTS: called from PluginASTAction::CreateASTConsumer (the main file is
/// entered in the SourceManager, the preprocessor exists, the parse has not
/// started).
std::unique_ptr<clang::ASTConsumer>
instrumentMainFile(const std::shared_ptr<Job> &J);

/// Keeps the plan's source notes, which carry locations of `SM`, as offsets
/// into the main file plus one (0 stays "no location"), until the real
/// compile's SourceManager can take them.
void detachNotes(const clang::SourceManager &SM, rewriter::Plan &P);

/// The nested parse: J.Original parsed once more, syntax only, bodies
/// outside the main file skipped, and its plan (notes as offsets).
frontdoor::PlanResult nestedPlan(Job &J);

/// Reports what `R` says (its errors, the spec's errors, the skipped sites)
/// and, when it has insertions, gives the instrumented text to `Place`;
/// calls J.Done with a plan. Returns whether `Place` was called.
bool applyPlan(Job &J, frontdoor::PlanResult &R, const Placer &Place);

} // namespace plugin
} // namespace sonde

#endif
