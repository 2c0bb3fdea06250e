//===- sonde/rewriter/Edits.h - Applying a plan -----------------*- C++ -*-===//
//
// Text in, text out: the plan's insertions applied to a buffer, the check
// that a rewrite is insertions only, and a unified diff for --diff.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_EDITS_H
#define SONDE_REWRITER_EDITS_H

#include "sonde/rewriter/Plan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace sonde {
namespace rewriter {

/// The buffer with every insertion of `P` applied.
/// EXPECTS: `Buffer` is the text `P` was computed from.
std::string applyEdits(llvm::StringRef Buffer, const Plan &P);

/// Checks that `Rewritten` is `Original` plus insertions within lines: the
/// same number of lines, each original line a subsequence of its rewritten
/// line. Errors name the first line that breaks the rule.
llvm::Error checkInsertionsOnly(llvm::StringRef Original,
                                llvm::StringRef Rewritten);

/// A unified diff (`--- A`, `+++ B`, hunks with 1 line of context).
std::string unifiedDiff(llvm::StringRef OldName, llvm::StringRef NewName,
                        llvm::StringRef Old, llvm::StringRef New);

} // namespace rewriter
} // namespace sonde

#endif
