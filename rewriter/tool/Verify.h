//===- tool/Verify.h - Check the instrumented text --------------*- C++ -*-===//
//
// sonde-rewrite compiles the text it produced (syntax only) when that text
// holds spec code, or always with --verify: an error inside spec code is the
// spec's, reported at the spec's line (frontdoor::SpecCodeMap); any other
// error is sonde's own bug, and the text is not written.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_VERIFY_H
#define SONDE_REWRITER_TOOL_VERIFY_H

#include "Instrument.h"

namespace sonde {
namespace rewrite {

/// Checks `R.Rewritten` (the plan `R.P` applied) when `Opts` ask for it,
/// into `R.SpecErrors`, `R.Diagnostics` and `R.EngineError`.
/// EXPECTS: `R.P` holds a plan.
void verifyRewritten(const clang::tooling::CompilationDatabase &DB,
                     const InstrumentOptions &Opts, Result &R,
                     std::mutex &PrintMutex);

} // namespace rewrite
} // namespace sonde

#endif
