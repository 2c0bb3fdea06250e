//===- tool/Verify.cpp - Check the instrumented text ----------------------===//
//
// The syntax-only compile of sonde-rewrite's output: see Verify.h.
//
//===----------------------------------------------------------------------===//

#include "Verify.h"

#include "CompileArgs.h"

#include "sonde/rewriter/frontdoor/PlanAction.h"
#include "sonde/rewriter/frontdoor/RuntimeInclude.h"
#include "sonde/rewriter/frontdoor/SpecCodeMap.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace sonde {
namespace rewrite {

namespace {

/// Collects errors of a syntax-only compile of the rewritten text.
class ErrorCollector : public DiagnosticConsumer {
public:
  struct Err {
    unsigned Offset;
    bool InMain;
    std::string Message;
    bool Located = false; ///< in some file (not the command line)
  };
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < DiagnosticsEngine::Error)
      return;
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Err E{0, false, Msg.str().str()};
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation Loc = SM.getFileLoc(Info.getLocation());
      E.Located = true;
      E.InMain = SM.isInMainFile(Loc);
      if (E.InMain)
        E.Offset = SM.getFileOffset(Loc);
    }
    Errors.push_back(std::move(E));
  }
  std::vector<Err> Errors;
};

} // namespace

void verifyRewritten(const CompilationDatabase &DB,
                     const InstrumentOptions &Opts, Result &R,
                     std::mutex &PrintMutex) {
  const rewriter::Plan &P = *R.P;
  const std::string &Rewritten = R.Rewritten;
  const std::string &IncludeDir = Opts.IncludeDir;
  if (!Opts.Verify && (P.SpecCode.empty() || Opts.NoVerify))
    return;
  if (IncludeDir.empty()) {
    R.Diagnostics += "sonde-rewrite: warning: sonde/sonde.h not found; the "
                     "instrumented text of '" +
                     R.Path + "' is not checked (use --runtime-include DIR)\n";
    return;
  }
  ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                 llvm::vfs::createPhysicalFileSystem());
  Tool.mapVirtualFile(R.Path, Rewritten);
  Tool.appendArgumentsAdjuster(commonAdjuster(PrintMutex));
  CommandLineArguments Extra;
  for (const std::string &H : P.RuntimeHeaders) {
    // A header this install lacks would stop the compile before any spec
    // code is checked (the plugin warns about it).
    if (frontdoor::runtimeHeaderPath(IncludeDir, H).empty())
      continue;
    Extra.push_back("-include");
    Extra.push_back(H);
  }
  Extra.push_back("-I");
  Extra.push_back(IncludeDir);
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::END));
  // Only errors matter here: the source's own warnings were shown by the
  // first parse, and under -Werror they would pose as errors.
  // -fno-caret-diagnostics also stops the "N errors generated." line.
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster({"-w", "-Wno-error", "-fno-caret-diagnostics"},
                                ArgumentInsertPosition::END));
  Tool.setPrintErrorMessage(false);
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  Tool.run(newFrontendActionFactory<frontdoor::MainBodiesAction>().get());
  unsigned EngineErrors = 0;
  std::string FirstEngineError;
  frontdoor::SpecCodeMap SpecCode(P);
  for (const ErrorCollector::Err &E : Errors.Errors) {
    if (std::optional<rewriter::SpecLoc> L =
            E.InMain ? SpecCode.find(E.Offset) : std::nullopt) {
      R.SpecErrors.push_back({*L, E.Message + " (in " + R.Path + ")"});
      continue;
    }
    // An error of no file (the command line: a flag of the build) is not
    // in the text sonde produced: never blamed on sonde.
    if (!E.Located) {
      R.Diagnostics += "sonde-rewrite: error: cannot check the instrumented "
                       "text of '" +
                       R.Path + "': " + E.Message + "\n";
      R.EngineError = true;
      continue;
    }
    // Not the spec's code: the engine produced text that does not compile
    // (the original did). Line numbers are the original's: insertions add
    // no newline.
    if (EngineErrors++)
      continue;
    FirstEngineError = R.Path;
    if (E.InMain) {
      StringRef Before = StringRef(Rewritten).take_front(E.Offset);
      FirstEngineError += ":" + std::to_string(Before.count('\n') + 1);
    }
    FirstEngineError += ": error: sonde-rewrite produced code that does not "
                        "compile (a sonde bug; please report it with the "
                        "spec and this file): " +
                        E.Message;
  }
  // The first error says where; the rest usually follow from it.
  if (EngineErrors) {
    R.Diagnostics += FirstEngineError;
    if (EngineErrors > 1)
      R.Diagnostics +=
          " (and " + std::to_string(EngineErrors - 1) + " more errors)";
    R.Diagnostics += "\n";
    R.EngineError = true;
  }
}

} // namespace rewrite
} // namespace sonde
