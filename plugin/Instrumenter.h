//===- Instrumenter.h - Compiling instrumented text in place ----*- C++ -*-===//
//
// What the plugin does to one compile before the real parse starts: parse
// the untouched main file once more in a nested, syntax-only compiler
// instance, compute the engine's plan on that AST, and swap the main file's
// buffer for the instrumented text, so that the real compile (code
// generation, debug info, dependency files) sees the instrumented program.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_PLUGIN_INSTRUMENTER_H
#define SONDE_PLUGIN_INSTRUMENTER_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang {
class CompilerInstance;
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
};

/// The outcome of instrumenting one main file.
struct Outcome {
  /// The plan, absent when nothing was instrumented (the source has errors,
  /// the input is not a C++ source file, ...).
  std::optional<rewriter::Plan> P;
  std::string Original;  ///< the main file's text the plan was computed on
  std::string Rewritten; ///< the instrumented text
};

/// True while the nested parse runs on this thread: the plugin, which clang
/// instantiates for every compile, must not instrument its own nested parse.
bool inNestedParse();

/// Parses the main file of `CI` (syntax only, bodies outside the main file
/// skipped), computes the plan of `S` on it and, when it has insertions,
/// replaces the main buffer with the instrumented text and makes the
/// runtime header `Header` visible to the real parse.
/// EXPECTS: called from PluginASTAction::CreateASTConsumer (the main file is
/// entered in the SourceManager, the preprocessor exists, no PCH is loaded).
/// Source diagnostics of the plan are reported through CI's diagnostics;
/// returns the outcome (no plan when the source has errors of its own).
Outcome instrumentMainFile(clang::CompilerInstance &CI, llvm::StringRef InFile,
                           const rewriter::Spec &S, const Options &Opts,
                           llvm::StringRef Header);

} // namespace plugin
} // namespace sonde

#endif
