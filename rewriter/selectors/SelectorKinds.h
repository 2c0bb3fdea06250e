//===- SelectorKinds.h - The selector kinds, one file each ------*- C++ -*-===//
//
// The constructor of each selector kind, for the registry (SelectorKinds.cpp).
// A kind named `call-site` lives in CallSiteKind.cpp, and so on: one file
// per kind, like a clang-tidy check. The helpers the kinds share are in
// Emit.h (the inserted code), ASTHelpers.h, Loops.h and Calls.h.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTORS_SELECTORKINDS_H
#define SONDE_REWRITER_SELECTORS_SELECTORKINDS_H

#include "sonde/rewriter/Matcher.h"

#include <memory>

namespace sonde {
namespace rewriter {

std::unique_ptr<SelectorKind> createFunctionRegionKind();
std::unique_ptr<SelectorKind> createRangeKind();
std::unique_ptr<SelectorKind> createCallSiteKind();
std::unique_ptr<SelectorKind> createLoopKind();
std::unique_ptr<SelectorKind> createEntryExitKind();
std::unique_ptr<SelectorKind> createReturnValueKind();
std::unique_ptr<SelectorKind> createVariableKind();
std::unique_ptr<SelectorKind> createApiCallKind();
std::unique_ptr<SelectorKind> createStateKind();

/// Entries of `probes:` and `watches:` (`apis:` and `state:` have kinds of
/// their own).
inline bool isClassic(const Probe &P) {
  return P.Sec == Section::Probes || P.Sec == Section::Watches;
}

} // namespace rewriter
} // namespace sonde

#endif
