//===- Calls.h - Finding the calls a selector names -------------*- C++ -*-===//
//
// The calls of a host function that a callee glob selects (with the notes
// for those that cannot be instrumented), and whether a call can be wrapped
// in a lambda unchanged: shared by the call-site, api-call and state kinds.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTORS_CALLS_H
#define SONDE_REWRITER_SELECTORS_CALLS_H

#include "PlanBuilder.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace clang {
class CallExpr;
} // namespace clang

namespace sonde {
namespace rewriter {

/// What forEachCall calls for each call: the call, the callee's qualified
/// name and its short name.
using CallVisitor = llvm::function_ref<void(const clang::CallExpr *CE,
                                            const std::string &Qualified,
                                            const std::string &Short)>;

/// Calls `Visit(CE, Qualified, Short)` for each call in the host function
/// that the probe's callee glob selects and that can be instrumented; the
/// others get a note. With `Written`, a qualified glob may also match the
/// callee's name as written at the call (`torch::*` selects
/// `torch::relu(x)`, whose function is `at::relu`).
void forEachCall(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                 bool Written, CallVisitor Visit);

/// Why wrapping call `CE` in a lambda would change its meaning; none if it
/// would not.
std::optional<std::string> whyNotWrappable(const clang::CallExpr *CE);

} // namespace rewriter
} // namespace sonde

#endif
