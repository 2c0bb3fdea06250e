//===- SpecCodeDiagnostics.cpp - Errors in spec code, at the spec ---------===//
//
// The plugin's diagnostic client for the instrumented compile: which byte is
// spec code comes from frontdoor::SpecCodeMap (shared with sonde-rewrite's
// check of its output); this file only prints such a diagnostic at the spec.
//
//===----------------------------------------------------------------------===//

#include "SpecCodeDiagnostics.h"

#include "sonde/rewriter/frontdoor/SpecCodeMap.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace plugin {

namespace {

class SpecCodeClient : public DiagnosticConsumer {
public:
  SpecCodeClient(DiagnosticConsumer *Next,
                 std::unique_ptr<DiagnosticConsumer> Owned, rewriter::Spec S,
                 frontdoor::SpecCodeMap Map, FileID Main)
      : Next(Next), Owned(std::move(Owned)), S(std::move(S)),
        Map(std::move(Map)), Main(Main) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Next->clear();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Next->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    // Counted here: clang prints "N errors generated" from this client.
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L == DiagnosticsEngine::Note && InSpecCode)
      return; // notes of a spec-code error point at instrumented text
    InSpecCode = false;
    if (L >= DiagnosticsEngine::Warning && Info.hasSourceManager() &&
        Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation Loc = SM.getFileLoc(Info.getLocation());
      std::pair<FileID, unsigned> D = SM.getDecomposedLoc(Loc);
      if (D.first == Main)
        if (std::optional<rewriter::SpecLoc> At = Map.find(D.second)) {
          SmallString<128> Msg;
          Info.FormatDiagnostic(Msg);
          PresumedLoc PL = SM.getPresumedLoc(Loc);
          if (PL.isValid())
            Msg += (" (in " + Twine(PL.getFilename()) + ":" +
                    Twine(PL.getLine()) + ")")
                       .str();
          S.diag(*At,
                 L >= DiagnosticsEngine::Error ? SourceMgr::DK_Error
                                               : SourceMgr::DK_Warning,
                 Msg, 1)
              .print(nullptr, errs(), /*ShowColors=*/false);
          InSpecCode = true;
          return;
        }
    }
    Next->HandleDiagnostic(L, Info);
  }

private:
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned; ///< Next, when it was owned
  rewriter::Spec S;
  frontdoor::SpecCodeMap Map;
  FileID Main;
  bool InSpecCode = false; ///< the last error was mapped; drop its notes
};

} // namespace

void installSpecCodeDiagnostics(CompilerInstance &CI, const rewriter::Spec &S,
                                const rewriter::Plan &P, FileID Main) {
  frontdoor::SpecCodeMap Map(P);
  if (Map.empty())
    return;
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  bool Owns = Diags.ownsClient();
  DiagnosticConsumer *Next = Diags.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Owns)
    Owned = Diags.takeClient();
  Diags.setClient(
      new SpecCodeClient(Next, std::move(Owned), S, std::move(Map), Main),
      /*ShouldOwnClient=*/true);
}

} // namespace plugin
} // namespace sonde
