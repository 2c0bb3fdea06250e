//===- tool/ReportUnmatched.h - Probes that match nothing -------*- C++ -*-===//
//
// A probe whose selector matches nothing is usually a typo: sonde-rewrite
// says so at the spec's line, with the nearest name that exists
// (sonde/rewriter/Unmatched.h decides which; this prints). Over the sources
// of one run, or, with --report-unmatched, over a whole build target from
// the match summaries its compiles wrote.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_REPORTUNMATCHED_H
#define SONDE_REWRITER_TOOL_REPORTUNMATCHED_H

#include "sonde/rewriter/Spec.h"
#include "sonde/rewriter/Unmatched.h"

#include "llvm/ADT/StringRef.h"

namespace sonde {
namespace rewrite {

/// Reports the probes that `M` says matched nothing (in `Where`, if not
/// empty), at the spec's lines: warnings, or errors when `Strict`.
/// Returns the exit code (ExitCode.h).
int reportUnmatchedProbes(const rewriter::Spec &S,
                          const rewriter::MatchSummary &M,
                          llvm::StringRef Where, bool Strict);

/// --report-unmatched WHAT: the probes that matched nothing in any of the
/// sources listed in the file `ListFile` (one per line: a build's whole
/// target), going by their summaries in `Dir`; once each, at the spec's
/// line, with the nearest name that exists. A source without a summary (its
/// object came from a compiler cache, or it failed) makes the report
/// impossible: that is said instead. Returns the exit code.
int reportUnmatched(const rewriter::Spec &S, llvm::StringRef Dir,
                    llvm::StringRef ListFile, llvm::StringRef What,
                    bool Strict);

} // namespace rewrite
} // namespace sonde

#endif
