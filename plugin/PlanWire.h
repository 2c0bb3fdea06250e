//===- PlanWire.h - A plan through a pipe -----------------------*- C++ -*-===//
//
// The forked child of a split compile (SplitCompile.h) computes the plan and
// its parent applies it: the plan crosses a pipe between the two processes
// as bytes. Both ends are the same plugin binary in the same clang, so the
// encoding is private to it (native byte order, no versioning); a truncated
// or malformed message decodes to nothing and the parent falls back to the
// nested parse.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_PLUGIN_PLANWIRE_H
#define SONDE_PLUGIN_PLANWIRE_H

#include "sonde/rewriter/frontdoor/PlanAction.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace sonde {
namespace plugin {

/// The bytes of `R` (its plan, whether the source had errors, why
/// computePlan failed). Plan::Notes must hold offsets, not locations.
std::string encodePlanResult(const frontdoor::PlanResult &R);

/// The PlanResult `Bytes` encode, or nothing if they are not a complete
/// message of encodePlanResult.
std::optional<frontdoor::PlanResult> decodePlanResult(llvm::StringRef Bytes);

} // namespace plugin
} // namespace sonde

#endif
