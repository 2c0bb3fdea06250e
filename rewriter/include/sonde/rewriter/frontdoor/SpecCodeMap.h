//===- sonde/rewriter/frontdoor/SpecCodeMap.h - Spec code spans -*- C++ -*-===//
//
// `when:` and `args:` expressions come from the probe spec. When one does
// not compile, the error belongs to the spec's line, not to a column of an
// instrumented line the user never wrote:
//
//   probes.yaml:14:11: error: use of undeclared identifier 'stpe' (in a.cpp)
//
// Plan::SpecCode says where spec code sits inside each insertion; this map
// says where it landed in the instrumented text, and which spec position a
// byte of it comes from. Both front doors compile instrumented text and map
// its errors through it.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_FRONTDOOR_SPECCODEMAP_H
#define SONDE_REWRITER_FRONTDOOR_SPECCODEMAP_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include <optional>
#include <vector>

namespace sonde {
namespace frontdoor {

/// The spec code of a plan, as byte ranges of its instrumented text (the
/// original with the plan's insertions applied, applyEdits' result).
class SpecCodeMap {
public:
  explicit SpecCodeMap(const rewriter::Plan &P);

  /// Whether the plan has no spec code.
  bool empty() const { return Spans.empty(); }

  /// The spec position of the byte at `Offset` of the instrumented text,
  /// if it lies in spec code (ends included: an error just past an
  /// expression is its own).
  std::optional<rewriter::SpecLoc> find(unsigned Offset) const;

private:
  struct Span {
    unsigned Begin = 0, End = 0;
    rewriter::SpecLoc Loc;
  };
  std::vector<Span> Spans; ///< in Plan::SpecCode's order
};

} // namespace frontdoor
} // namespace sonde

#endif
