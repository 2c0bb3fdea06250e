//===- Loops.h - Finding the loops a selector names -------------*- C++ -*-===//
//
// The loops of a host function that `#loop_X`, `#loop@N` and `#endloop_X`
// select, their bodies and `continue`s, and whether a jump lands inside one:
// shared by the loop, range and state kinds.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTORS_LOOPS_H
#define SONDE_REWRITER_SELECTORS_LOOPS_H

#include "PlanBuilder.h"

#include <vector>

namespace sonde {
namespace rewriter {

/// The body of loop `L`.
const clang::Stmt *loopBody(const clang::Stmt *L);

/// Loops of the host function an item selects.
std::vector<const clang::Stmt *>
selectLoops(PlanBuilder &B, const FunctionFacts &Fx, const Item &I);

/// `continue` statements that continue `Loop` (not an inner loop).
std::vector<const clang::Stmt *> continuesOf(const PlanBuilder &B,
                                             const FunctionFacts &Fx,
                                             const clang::Stmt *Loop);

/// Skips loop `L` for probe `Pr`, with the note, when a jump from outside
/// lands in its body: a `case` of a switch outside the loop (Duff's
/// device), or a label that a goto outside the loop targets or whose
/// address is taken. A declaration at the start of the body (an Iteration,
/// a Loop counter) would be jumped over, which does not compile.
bool skipIfJumpedInto(PlanBuilder &B, const FunctionFacts &Fx,
                      const clang::Stmt *L, const Probe &Pr);

} // namespace rewriter
} // namespace sonde

#endif
