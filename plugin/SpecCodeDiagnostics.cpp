//===- SpecCodeDiagnostics.cpp - Errors in spec code, at the spec ---------===//

#include "SpecCodeDiagnostics.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace plugin {

namespace {

/// A byte range of spec code in the instrumented main file.
struct Span {
  unsigned Begin = 0, End = 0;
  rewriter::SpecLoc Loc;
};

class SpecCodeClient : public DiagnosticConsumer {
public:
  SpecCodeClient(DiagnosticConsumer *Next,
                 std::unique_ptr<DiagnosticConsumer> Owned, rewriter::Spec S,
                 std::vector<Span> Spans, FileID Main)
      : Next(Next), Owned(std::move(Owned)), S(std::move(S)),
        Spans(std::move(Spans)), Main(Main) {}

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
        for (const Span &Sp : Spans) {
          if (D.second < Sp.Begin || D.second > Sp.End)
            continue;
          SmallString<128> Msg;
          Info.FormatDiagnostic(Msg);
          PresumedLoc PL = SM.getPresumedLoc(Loc);
          if (PL.isValid())
            Msg += (" (in " + Twine(PL.getFilename()) + ":" +
                    Twine(PL.getLine()) + ")")
                       .str();
          rewriter::SpecLoc At{Sp.Loc.Line, Sp.Loc.Col + (D.second - Sp.Begin)};
          S.diag(At,
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
  std::vector<Span> Spans;
  FileID Main;
  bool InSpecCode = false; ///< the last error was mapped; drop its notes
};

} // namespace

void installSpecCodeDiagnostics(CompilerInstance &CI, const rewriter::Spec &S,
                                const rewriter::Plan &P, FileID Main) {
  if (P.SpecCode.empty())
    return;
  // Where each insertion landed in the instrumented text.
  std::vector<unsigned> Start(P.Insertions.size());
  unsigned Shift = 0;
  for (size_t I = 0; I < P.Insertions.size(); ++I) {
    Start[I] = P.Insertions[I].Offset + Shift;
    Shift += P.Insertions[I].Text.size();
  }
  std::vector<Span> Spans;
  for (const rewriter::SpecCodeSpan &Sp : P.SpecCode)
    Spans.push_back({Start[Sp.InsertionIndex] + Sp.Begin,
                     Start[Sp.InsertionIndex] + Sp.End, Sp.Loc});
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  bool Owns = Diags.ownsClient();
  DiagnosticConsumer *Next = Diags.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Owns)
    Owned = Diags.takeClient();
  Diags.setClient(
      new SpecCodeClient(Next, std::move(Owned), S, std::move(Spans), Main),
      /*ShouldOwnClient=*/true);
}

} // namespace plugin
} // namespace sonde
