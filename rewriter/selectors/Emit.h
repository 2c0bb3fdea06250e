//===- Emit.h - The code selector kinds insert ------------------*- C++ -*-===//
//
// What several selector kinds insert, written once: the event name of a site,
// the values that ride along with it (captures, `args`), and the statements
// and expressions that open a region, record an instant or watch a value,
// under the probe's guard or not.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTORS_EMIT_H
#define SONDE_REWRITER_SELECTORS_EMIT_H

#include "PlanBuilder.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace sonde {
namespace rewriter {

/// The event name: `name:`, else the category's child (`compute.forward`
/// gives `forward`), else `Fallback`.
std::string eventName(const Probe &Pr, llvm::StringRef Fallback);

/// Whether a guard (context frames, `when`, `every`) makes `Pr` conditional.
bool isGuarded(const Probe &Pr);

/// The values that ride along with a site: captures in scope at `At`, then
/// the spec's `args`.
struct RideAlong {
  Code Values; ///< `, a, b` (each preceded by a comma)
  std::string Names;
  bool empty() const { return Names.empty(); }
};

/// The ride-alongs of `Pr` at statement `At` (at the start of `F`'s body if
/// `AtBodyStart`); a capture not in scope there gets a warning at `NoteAt`.
RideAlong rideAlong(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                    const HostFunction &F, const clang::Stmt *At,
                    bool AtBodyStart, clang::SourceLocation NoteAt);

/// The guard as a condition: `G`, or `true` when the probe always fires
/// (for the runtime calls that take one: CondRegion, call, api...).
Code condition(const Code &G);

/// `if (G) St`, or `St` when there is no guard.
Code guarded(const Code &G, const Code &St);

/// What an InsertedRegion of site `R` is built from: `table, index` when
/// nothing rides along (the table's look-up is then out of line), else the
/// site and the ride-alongs.
Code regionSite(const SiteRef &R, const RideAlong &A);

/// A region object named `Var` for site `R`: a Region, an InstantRegion, or
/// a CondRegion when it is guarded, carries an instant's ride-alongs or
/// must be able to close early (`Closable`).
Code regionDecl(const Probe &Pr, const SiteRef &R, const Code &G,
                const RideAlong &A, llvm::StringRef Var, bool Closable = false);

/// A point in time: an instant, with its ride-alongs.
Code instantStmt(const SiteRef &R, const Code &G, const RideAlong &A);

/// The runtime function an inserted watch without ride-alongs calls
/// (sonde/detail/Inserted.h): the non-template writer of a standard
/// arithmetic type's written type, which is lighter for the compiler at
/// each of thousands of sites, or the `watchAt` template for every other
/// type.
enum class WatchWriter { Any, Int, UInt, Float, Bool };

/// The writer of a watch of a value of type `T`. `Any` for a dependent
/// type; for `char` and `wchar_t`, whose signedness is a flag of the
/// compile that may differ from the engine's (sonde-rewrite's output is
/// compiled by another compiler); and for `float` and `long double`, whose
/// conversion to the writer's double some warnings report at the site.
/// `watchAt` decides for those.
WatchWriter watchWriterFor(clang::QualType T);

/// A watch of `Value` (written through `W`) as a statement.
Code watchStmt(const SiteRef &R, const Code &G, llvm::StringRef Value,
               WatchWriter W, const RideAlong &A);

/// A watch usable where an expression is expected.
Code watchAsExpr(const SiteRef &R, const Code &G, llvm::StringRef Value,
                 WatchWriter W, const RideAlong &A);

} // namespace rewriter
} // namespace sonde

#endif
