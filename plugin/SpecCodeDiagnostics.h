//===- SpecCodeDiagnostics.h - Errors in spec code, at the spec -*- C++ -*-===//
//
// `when:` and `args:` expressions come from the probe spec. When one does
// not compile, the error belongs to the spec's line, not to a column of an
// instrumented line the user never wrote:
//
//   probes.yaml:14:11: error: use of undeclared identifier 'stpe' (in a.cpp:4)
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_PLUGIN_SPECCODEDIAGNOSTICS_H
#define SONDE_PLUGIN_SPECCODEDIAGNOSTICS_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "clang/Basic/SourceLocation.h"

namespace clang {
class CompilerInstance;
} // namespace clang

namespace sonde {
namespace plugin {

/// Wraps CI's diagnostic client so that diagnostics inside the spec code of
/// `P` (in the instrumented main file `Main`) are printed at the spec's
/// location; everything else passes through unchanged. Such errors still
/// count, so the compile fails.
/// EXPECTS: `Main` holds the text `P` was applied to; `S` and `P` outlive
/// the compile (the client keeps copies of what it needs).
void installSpecCodeDiagnostics(clang::CompilerInstance &CI,
                                const rewriter::Spec &S,
                                const rewriter::Plan &P, clang::FileID Main);

} // namespace plugin
} // namespace sonde

#endif
