//===- sonde/rewriter/frontdoor/PlanAction.h - Parse, then plan -*- C++ -*-===//
//
// The frontend action both front doors run to compute a plan: a syntax-only
// parse of one main file with the bodies of functions outside it skipped and
// no end-of-TU work (TU_Prefix), then computePlan() on its AST. sonde-rewrite
// runs it through a ClangTool, the plugin in a nested CompilerInstance; what
// each then does with the plan (write files, compile the text in place) is
// its own business, and no decision about probes is made by either.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_FRONTDOOR_PLANACTION_H
#define SONDE_REWRITER_FRONTDOOR_PLANACTION_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class SourceManager;
} // namespace clang

namespace sonde {
namespace frontdoor {

/// A consumer that skips the bodies of functions outside the main file:
/// they are never instrumented, and skipping them saves most of a parse of
/// heavy headers (Sema still parses those it needs: constexpr functions,
/// deduced return types).
class MainBodiesConsumer : public clang::ASTConsumer {
public:
  /// A `Preprocessed` input (-save-temps's .ii) holds its headers in the
  /// main buffer; its own code is what the line markers attribute to
  /// `FileName`.
  explicit MainBodiesConsumer(const clang::SourceManager &SM,
                              bool Preprocessed = false,
                              llvm::StringRef FileName = "")
      : SM(SM), Preprocessed(Preprocessed), FileName(FileName.str()) {}
  bool shouldSkipFunctionBody(clang::Decl *D) override;

private:
  const clang::SourceManager &SM;
  bool Preprocessed;
  std::string FileName;
};

/// A syntax-only compile with MainBodiesConsumer's rule: sonde-rewrite's
/// check of the instrumented text.
class MainBodiesAction : public clang::ASTFrontendAction {
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;
};

/// What a front door asks of one parse for a plan.
struct PlanRequest {
  /// PlanOptions::FileName: the main file as the sites name it.
  std::string FileName;
  /// The input is preprocessed (see MainBodiesConsumer).
  bool Preprocessed = false;
  /// Where the compile's "N errors generated" goes, after the messages it
  /// counts; null: the instance's own stream.
  llvm::raw_ostream *Log = nullptr;
  /// Called with a computed plan while the parse's SourceManager still
  /// exists (Plan::Notes hold locations in it): report or relocate them.
  std::function<void(clang::CompilerInstance &, rewriter::Plan &)> OnPlan;
};

/// What the parse produced.
struct PlanResult {
  /// The plan; absent when the source has errors or computePlan failed.
  std::optional<rewriter::Plan> P;
  std::string Original;      ///< the main file's text the plan was computed on
  bool SourceErrors = false; ///< the parse had errors: nothing is planned
  /// Why computePlan failed, once per compile that ran the action (a
  /// ClangTool runs one per compile command of the file).
  std::vector<std::string> Errors;
};

/// Parses the main file and computes the plan of `S` on it into `Out`.
/// Instrumenting a broken file is the compiler's business: a parse with
/// errors sets PlanResult::SourceErrors and plans nothing.
class PlanAction : public clang::ASTFrontendAction {
public:
  PlanAction(const rewriter::Spec &S, PlanRequest Req, PlanResult &Out)
      : S(S), Req(std::move(Req)), Out(Out) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;
  /// No end-of-TU work (pending instantiations, vtables): the plan needs
  /// template patterns, not their instantiations, and that work is most of
  /// what a syntax-only parse would cost beyond the parse itself.
  clang::TranslationUnitKind getTranslationUnitKind() override {
    return clang::TU_Prefix;
  }

private:
  const rewriter::Spec &S;
  PlanRequest Req;
  PlanResult &Out;
};

} // namespace frontdoor
} // namespace sonde

#endif
