//===- sonde/rewriter/Diag.h - Located diagnostics --------------*- C++ -*-===//
//
// Two kinds of messages leave the engine, and neither is printed by it:
//   - spec diagnostics, located in probes.yaml, as llvm::SMDiagnostic (the
//     front door prints them: `probes.yaml:12:9: error: ...` and a caret);
//   - source diagnostics, located in the C++ source, reported through the
//     compile's DiagnosticsEngine with custom IDs, so the CLI and the plugin
//     print the same text (`warning: probe 'x' skipped: ... [sonde-macro]`).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_DIAG_H
#define SONDE_REWRITER_DIAG_H

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
} // namespace clang

namespace sonde {
namespace rewriter {

/// One or more located spec messages. The error of every spec failure.
class SpecDiagnostics : public llvm::ErrorInfo<SpecDiagnostics> {
public:
  static char ID;
  explicit SpecDiagnostics(std::vector<llvm::SMDiagnostic> Diags)
      : Diags(std::move(Diags)) {}
  /// Prints every message in clang's format, caret included.
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

  std::vector<llvm::SMDiagnostic> Diags;
};

/// A source message kept as data until a front door reports it.
struct SourceNote {
  enum Level { Note, Warning, Error };
  Level Lvl = Warning;
  std::string File;
  unsigned Line = 0, Col = 0;
  std::string Message;
  std::string Flag;    ///< `sonde-macro`, `sonde-constexpr`, ...
  unsigned RawLoc = 0; ///< clang::SourceLocation raw encoding, 0 if none
};

/// Reports `Notes` through `Diags` with custom IDs. `Strict` turns warnings
/// into errors. Used by both front doors.
void reportSourceNotes(clang::DiagnosticsEngine &Diags,
                       const std::vector<SourceNote> &Notes, bool Strict);

} // namespace rewriter
} // namespace sonde

#endif
