//===- sonde/rewriter/Plan.h - Sites and insertions -------------*- C++ -*-===//
//
// The plan of one translation unit's main file: the probe sites (what the
// instrumented program records) and the insertions that create them. Both
// front doors compute it with computePlan() and only apply it.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_PLAN_H
#define SONDE_REWRITER_PLAN_H

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace sonde {
namespace rewriter {

/// One probe site: the static facts its `sonde::Site` descriptor carries.
struct PlanSite {
  uint64_t Id = 0;      ///< stable: a hash of file-relative facts
  std::string Kind;     ///< region, instant, watch, loop, frame, state, api
  std::string Category; ///< `compute.forward`
  std::string Name;     ///< the event name
  std::string File;     ///< the original source, as the engine spells it
  unsigned Line = 0;
  std::string Function;    ///< qualified name of the enclosing function
  std::string Watched;     ///< what is watched or wrapped (`loss`, `f()`)
  std::string Args;        ///< comma-separated arg names
  std::string Type;        ///< the watched type as written
  unsigned Flags = 0;      ///< sonde::SiteFlags, summary kind in bits 3-5
  unsigned ProbeIndex = 0; ///< the spec probe that made it
  std::string Selector;    ///< its `at:`
};

/// A text insertion into the main file. Never contains a newline.
struct Insertion {
  unsigned Offset = 0; ///< byte offset in the original buffer
  /// Order among insertions at the same offset: lower first. Closers of an
  /// earlier construct come before openers of a later one.
  int Rank = 0;
  unsigned Seq = 0; ///< creation order, the last tie-breaker
  std::string Text;
};

/// Where spec code (`when`, `args`) landed in an insertion, so that a
/// compile error inside it is reported at the spec's line.
struct SpecCodeSpan {
  unsigned InsertionIndex = 0; ///< into Plan::Insertions (after sorting)
  unsigned Begin = 0, End = 0; ///< byte range within that insertion's text
  SpecLoc Loc;                 ///< of the expression in the spec
  unsigned ProbeIndex = 0;
};

/// A spec mistake that only the source can show (a capture that no function
/// the selector matches declares): an error at the spec's line.
struct SpecNote {
  SpecLoc Loc;
  unsigned Length = 0; ///< characters under the caret
  std::string Message;
  unsigned ProbeIndex = 0;
};

/// The plan of one main file.
struct Plan {
  std::string File; ///< the main file, as the engine spells it
  std::vector<PlanSite> Sites;
  std::vector<Insertion> Insertions; ///< sorted by (Offset, Rank, Seq)
  std::vector<SpecCodeSpan> SpecCode;
  /// Skipped sites and the like; none when there are SpecErrors.
  std::vector<SourceNote> Notes;
  /// Spec errors found against this file; a front door that gets any
  /// reports them at the spec's lines and applies nothing.
  std::vector<SpecNote> SpecErrors;
  /// Per spec probe: how many sites it produced in this file.
  std::vector<unsigned> MatchCounts;
  /// The qualified names of the functions defined in this file, and their
  /// TORCH_MODULE holders' names (HostFunction::HolderName), for the names
  /// a selector that matches nothing may have meant (Unmatched.h).
  std::vector<std::string> HostNames;
  /// The runtime headers the instrumented text needs, sonde/sonde.h first,
  /// then in name order: sonde/containers.h when a recorded value is a
  /// std::vector or std::array of numbers; sonde/torch.h when one is a
  /// tensor (or a template of one), or the file has `state:` sites, or
  /// starts `torch_ops:` (torch.h includes containers.h). The instrumented text
  /// cannot include them (a line would move every line after it): the plugin
  /// adds each as an `-include` to the real compile, and a build of
  /// sonde-rewrite's output must pass them the same way.
  std::vector<std::string> RuntimeHeaders;

  /// One line per site: id kind category name file:line function watched;
  /// first `# headers: ...` when the file needs more than sonde/sonde.h.
  void printSites(llvm::raw_ostream &OS) const;
  /// The sites as a JSON array of objects.
  void printSitesJson(llvm::raw_ostream &OS) const;
};

/// Options of computePlan().
struct PlanOptions {
  /// The main file's name as recorded in sites and hashed into ids;
  /// empty: the name the SourceManager has.
  std::string FileName;
};

/// Computes the plan of `Ctx`'s main file for `S`.
/// EXPECTS: the AST is complete and has no errors (instrumenting a broken
/// file is the compiler's business, not ours).
/// Source diagnostics are returned in Plan::Notes, never printed.
llvm::Expected<Plan> computePlan(clang::ASTContext &Ctx, const Spec &S,
                                 const PlanOptions &Opts = {});

} // namespace rewriter
} // namespace sonde

#endif
