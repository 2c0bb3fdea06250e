//===- frontdoor/PlanAction.cpp - Parse, then plan ------------------------===//
//
// The parse both front doors run before they apply a plan: see
// sonde/rewriter/frontdoor/PlanAction.h.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/frontdoor/PlanAction.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace frontdoor {

bool MainBodiesConsumer::shouldSkipFunctionBody(Decl *D) {
  SourceLocation L = SM.getExpansionLoc(D->getLocation());
  if (!Preprocessed)
    return !SM.isInMainFile(L);
  PresumedLoc P = SM.getPresumedLoc(L);
  return P.isInvalid() || FileName != P.getFilename();
}

std::unique_ptr<ASTConsumer>
MainBodiesAction::CreateASTConsumer(CompilerInstance &CI, StringRef) {
  CI.getFrontendOpts().SkipFunctionBodies = true;
  return std::make_unique<MainBodiesConsumer>(CI.getSourceManager());
}

namespace {

/// Skips bodies outside the main file, then computes the plan.
class PlanConsumer : public MainBodiesConsumer {
public:
  PlanConsumer(CompilerInstance &CI, const rewriter::Spec &S,
               const PlanRequest &Req, PlanResult &Out)
      : MainBodiesConsumer(CI.getSourceManager(), Req.Preprocessed,
                           Req.FileName),
        CI(CI), S(S), Req(Req), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred()) {
      // The compiler reports the source's own errors; we instrument nothing.
      Out.SourceErrors = true;
      return;
    }
    SourceManager &SM = Ctx.getSourceManager();
    Out.Original = SM.getBufferData(SM.getMainFileID()).str();
    rewriter::PlanOptions Opts;
    Opts.FileName = Req.FileName;
    Expected<rewriter::Plan> P = rewriter::computePlan(Ctx, S, Opts);
    if (!P) {
      Out.Errors.push_back(toString(P.takeError()));
      return;
    }
    if (Req.OnPlan)
      Req.OnPlan(CI, *P);
    Out.P = std::move(*P);
  }

private:
  CompilerInstance &CI;
  const rewriter::Spec &S;
  const PlanRequest &Req;
  PlanResult &Out;
};

} // namespace

std::unique_ptr<ASTConsumer> PlanAction::CreateASTConsumer(CompilerInstance &CI,
                                                           StringRef) {
  CI.getFrontendOpts().SkipFunctionBodies = true;
  if (Req.Log)
    CI.setVerboseOutputStream(*Req.Log);
  return std::make_unique<PlanConsumer>(CI, S, Req, Out);
}

} // namespace frontdoor
} // namespace sonde
