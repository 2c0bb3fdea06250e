//===- SelectorKinds.cpp - The table of selector kinds --------------------===//
//
// The one list of selector kinds, in dispatch order. A new kind is a file
// of its own (see SelectorKinds.h) and one line here.
//
//===----------------------------------------------------------------------===//

#include "SelectorKinds.h"

namespace sonde {
namespace rewriter {

const std::vector<std::unique_ptr<SelectorKind>> &selectorKinds() {
  static const std::vector<std::unique_ptr<SelectorKind>> Kinds = [] {
    std::vector<std::unique_ptr<SelectorKind>> K;
    K.push_back(createFunctionRegionKind());
    K.push_back(createRangeKind());
    K.push_back(createCallSiteKind());
    K.push_back(createLoopKind());
    K.push_back(createEntryExitKind());
    K.push_back(createReturnValueKind());
    K.push_back(createVariableKind());
    K.push_back(createApiCallKind());
    K.push_back(createStateKind());
    return K;
  }();
  return Kinds;
}

} // namespace rewriter
} // namespace sonde
