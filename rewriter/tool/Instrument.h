//===- tool/Instrument.h - Instrument one source ----------------*- C++ -*-===//
//
// What sonde-rewrite does to one source, on a worker thread: parse it with
// the build's flags, compute its plan (frontdoor::PlanAction), apply it, and
// check the instrumented text when it holds spec code (Verify.h). Nothing is
// printed or written here: the Result says what happened, and the main
// thread reports and writes the batch as a whole.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_INSTRUMENT_H
#define SONDE_REWRITER_TOOL_INSTRUMENT_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonde {
namespace rewrite {

/// What one translation unit produced.
struct Result {
  std::string Path;     ///< the source as given
  std::string Original; ///< the text the plan was computed from
  std::optional<rewriter::Plan> P;
  std::string Rewritten;   ///< Original with P applied, once it parsed
  std::string Diagnostics; ///< rendered compiler and engine messages
  bool SourceError = false;
  bool StrictError = false;
  bool SpecConflict = false; ///< two probes record the same event
  /// Spec code that does not compile: where in the spec, and the message.
  /// Rendered on the main thread (the spec's SourceMgr is not thread-safe).
  std::vector<std::pair<rewriter::SpecLoc, std::string>> SpecErrors;
  /// Errors in the instrumented text outside spec code: sonde's own bugs.
  bool EngineError = false;
  bool failed() const { return SourceError || StrictError || EngineError; }
};

/// The options that shape one source's instrumentation.
struct InstrumentOptions {
  bool Strict = false;    ///< --strict: skipped sites are errors
  bool Verify = false;    ///< --verify: check every instrumented text
  bool NoVerify = false;  ///< --no-verify: check none
  std::string IncludeDir; ///< where sonde/sonde.h is; empty: not found
};

/// Instruments the source `R.Path`, whose text is `Text`, into `R`.
/// `PrintMutex` serializes what threads print.
void instrumentSource(const clang::tooling::CompilationDatabase &DB,
                      const rewriter::Spec &S, const InstrumentOptions &Opts,
                      llvm::StringRef Text, Result &R, std::mutex &PrintMutex);

} // namespace rewrite
} // namespace sonde

#endif
