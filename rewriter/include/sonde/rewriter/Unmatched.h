//===- sonde/rewriter/Unmatched.h - Probes that match nothing ---*- C++ -*-===//
//
// A probe that matches nothing in a whole program is a mistake the user
// must hear about (`at: "Net::forwrd"`), but one that matches nothing in one
// of its files is normal. So each translation unit records which probes it
// matched and the names a selector could have meant (a match summary, a
// small side file in a build), and one step per program merges the
// summaries and reports each probe that matched nothing, once, at the
// spec's line, with the nearest name that exists.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_UNMATCHED_H
#define SONDE_REWRITER_UNMATCHED_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace sonde {
namespace rewriter {

/// What some translation units tell about the spec's probes.
struct MatchSummary {
  /// specFingerprint() of the spec the plans were computed for.
  std::string Spec;
  /// Per spec probe: how many sites it produced.
  std::vector<unsigned> MatchCounts;
  /// The functions defined in those main files, qualified (sorted, unique).
  std::vector<std::string> Names;

  /// Adds one translation unit's plan.
  void add(const Plan &P);
  /// Adds another summary (of the same spec).
  llvm::Error merge(const MatchSummary &Other);
  /// The side-file form: text, one fact per line.
  void write(llvm::raw_ostream &OS) const;
  /// Reads what write() wrote; `Path` names the file in errors.
  static llvm::Expected<MatchSummary> parse(llvm::StringRef Text,
                                            llvm::StringRef Path);
};

/// What identifies a spec's probes (their selectors, in order): summaries
/// of another fingerprint are of an older spec. A comment edit keeps it.
std::string specFingerprint(const Spec &S);

/// Where a build puts the summary of `Source` in the directory `Dir`:
/// `Dir/<file name>.<hash of its absolute path>.sonde-matches`.
std::string matchSummaryPath(llvm::StringRef Dir, llvm::StringRef Source);

/// Writes the summary of plan `P` (of spec `S`) for `Source` to
/// matchSummaryPath(Dir, Source), creating `Dir`: through a temporary and
/// a rename, so that two compiles of one source never leave a mix of both.
/// The error names the file and the system's reason.
llvm::Error writeMatchSummary(const Spec &S, const Plan &P, llvm::StringRef Dir,
                              llvm::StringRef Source);

/// Reads the summary at `Path`: none when there is no such file or it is
/// of another spec (an older build's).
llvm::Expected<std::optional<MatchSummary>>
readMatchSummary(const Spec &S, llvm::StringRef Path);

/// A probe that matched nothing, and a name the user may have meant.
struct UnmatchedProbe {
  const Probe *P = nullptr;
  std::string Suggestion; ///< empty: none close enough
};

/// The probes of `S` that `M` says matched nothing, in spec order.
std::vector<UnmatchedProbe> unmatchedProbes(const Spec &S,
                                            const MatchSummary &M);

/// The message for one of them: `selector 'X' matches nothing in <Where>`,
/// then `; did you mean 'Y'?` when a name is close.
std::string unmatchedMessage(const UnmatchedProbe &U, llvm::StringRef Where);

/// The name of `Names` closest to the function glob `Glob`, if it is a
/// plausible typo of it; `Net::forward` also reaches `NetImpl::forward`
/// (TORCH_MODULE(Net) makes the class NetImpl).
std::string nearestFunction(llvm::StringRef Glob,
                            const std::vector<std::string> &Names);

} // namespace rewriter
} // namespace sonde

#endif
