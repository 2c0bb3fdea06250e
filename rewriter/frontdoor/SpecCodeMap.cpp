//===- frontdoor/SpecCodeMap.cpp - Spec code spans ------------------------===//
//
// Where spec code landed in instrumented text: see
// sonde/rewriter/frontdoor/SpecCodeMap.h.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/frontdoor/SpecCodeMap.h"

namespace sonde {
namespace frontdoor {

SpecCodeMap::SpecCodeMap(const rewriter::Plan &P) {
  if (P.SpecCode.empty())
    return;
  // Where each insertion landed in the instrumented text: the insertions
  // are sorted by offset, and each shifts the ones after it.
  std::vector<unsigned> Start(P.Insertions.size());
  unsigned Shift = 0;
  for (size_t I = 0; I < P.Insertions.size(); ++I) {
    Start[I] = P.Insertions[I].Offset + Shift;
    Shift += P.Insertions[I].Text.size();
  }
  for (const rewriter::SpecCodeSpan &Sp : P.SpecCode)
    Spans.push_back({Start[Sp.InsertionIndex] + Sp.Begin,
                     Start[Sp.InsertionIndex] + Sp.End, Sp.Loc});
}

std::optional<rewriter::SpecLoc> SpecCodeMap::find(unsigned Offset) const {
  for (const Span &Sp : Spans)
    if (Offset >= Sp.Begin && Offset <= Sp.End)
      return rewriter::SpecLoc{Sp.Loc.Line, Sp.Loc.Col + (Offset - Sp.Begin)};
  return std::nullopt;
}

} // namespace frontdoor
} // namespace sonde
