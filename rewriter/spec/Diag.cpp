//===- Diag.cpp - Located diagnostics -------------------------------------===//
//
// See Diag.h: the error type of a refused spec (its messages printed in
// clang's format) and the report of source notes through a compile's
// DiagnosticsEngine, shared by sonde-rewrite and the plugin.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Diag.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

char SpecDiagnostics::ID = 0;

void SpecDiagnostics::log(raw_ostream &OS) const {
  for (const SMDiagnostic &D : Diags)
    D.print(nullptr, OS, /*ShowColors=*/false);
}

std::error_code SpecDiagnostics::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

void reportSourceNotes(clang::DiagnosticsEngine &Diags,
                       const std::vector<SourceNote> &Notes, bool Strict) {
  for (const SourceNote &N : Notes) {
    clang::DiagnosticsEngine::Level L = clang::DiagnosticsEngine::Warning;
    if (N.Lvl == SourceNote::Note)
      L = clang::DiagnosticsEngine::Note;
    if (N.Lvl == SourceNote::Error || (Strict && N.Lvl == SourceNote::Warning))
      L = clang::DiagnosticsEngine::Error;
    std::string Text = N.Message;
    if (!N.Flag.empty())
      Text += " [" + N.Flag + "]";
    unsigned ID = Diags.getCustomDiagID(L, "%0");
    Diags.Report(clang::SourceLocation::getFromRawEncoding(N.RawLoc), ID)
        << Text;
  }
}

} // namespace rewriter
} // namespace sonde
