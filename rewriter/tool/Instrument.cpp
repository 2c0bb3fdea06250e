//===- tool/Instrument.cpp - Instrument one source ------------------------===//
//
// One source through the shared front-door layer: see Instrument.h.
//
//===----------------------------------------------------------------------===//

#include "Instrument.h"

#include "CompileArgs.h"
#include "Verify.h"

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Edits.h"
#include "sonde/rewriter/frontdoor/PlanAction.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace sonde {
namespace rewrite {

namespace {

/// The shared PlanAction, for each compile a ClangTool runs.
class PlanActionFactory : public FrontendActionFactory {
public:
  PlanActionFactory(const rewriter::Spec &S, frontdoor::PlanRequest Req,
                    frontdoor::PlanResult &Out)
      : S(S), Req(std::move(Req)), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<frontdoor::PlanAction>(S, Req, Out);
  }

private:
  const rewriter::Spec &S;
  frontdoor::PlanRequest Req;
  frontdoor::PlanResult &Out;
};

} // namespace

void instrumentSource(const CompilationDatabase &DB, const rewriter::Spec &S,
                      const InstrumentOptions &Opts, StringRef Text, Result &R,
                      std::mutex &PrintMutex) {
  // A physical file system per tool: its working directory is its own,
  // not the process's, so threads do not race on chdir.
  ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                 llvm::vfs::createPhysicalFileSystem());
  SmallString<256> Abs(R.Path);
  // Without a current directory the path stays as given.
  (void)sys::fs::make_absolute(Abs);
  Tool.mapVirtualFile(Abs, Text);
  Tool.appendArgumentsAdjuster(commonAdjuster(PrintMutex));
  std::string Rendered;
  raw_string_ostream DiagOS(Rendered);
  // The printer keeps a reference count on its options.
  TextDiagnosticPrinter Printer(DiagOS, new DiagnosticOptions());
  Tool.setDiagnosticConsumer(&Printer);
  frontdoor::PlanRequest Req;
  Req.FileName = R.Path;
  Req.Log = &DiagOS;
  // The plan's notes (skipped sites) are printed by the parse's own
  // diagnostics, while its SourceManager exists.
  Req.OnPlan = [&R, Strict = Opts.Strict](CompilerInstance &CI,
                                          rewriter::Plan &P) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    unsigned ErrorsBefore = D.getNumErrors();
    rewriter::reportSourceNotes(D, P.Notes, Strict);
    if (D.getNumErrors() > ErrorsBefore)
      R.StrictError = true;
    for (const rewriter::SourceNote &N : P.Notes)
      R.SpecConflict |= N.Flag == "sonde-conflict";
  };
  frontdoor::PlanResult Planned;
  PlanActionFactory Factory(S, std::move(Req), Planned);
  // The compiler's messages say what failed; not "Error while
  // processing".
  Tool.setPrintErrorMessage(false);
  int RC = Tool.run(&Factory);
  R.SourceError = Planned.SourceErrors;
  R.Original = std::move(Planned.Original);
  R.P = std::move(Planned.P);
  for (const std::string &E : Planned.Errors) {
    R.Diagnostics += "sonde-rewrite: error: " + E + "\n";
    R.SourceError = true;
  }
  if (RC != 0 && !R.P)
    R.SourceError = true;
  DiagOS.flush();
  R.Diagnostics = Rendered + R.Diagnostics;
  if (R.P && !R.SourceError) {
    R.Rewritten = rewriter::applyEdits(R.Original, *R.P);
    verifyRewritten(DB, Opts, R, PrintMutex);
  }
}

} // namespace rewrite
} // namespace sonde
