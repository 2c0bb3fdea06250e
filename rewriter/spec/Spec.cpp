//===- Spec.cpp - The loaded spec -----------------------------------------===//
//
// What a loaded Spec answers once loading is done (SpecLoader.cpp loads
// it): whether a definition is in scope, where an offset into a selector
// is, and a located message with a caret.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Spec.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

bool Probe::contextArgs() const {
  if (Context)
    return *Context;
  return StringRef(Category).starts_with("pipeline.");
}

bool Spec::inScope(StringRef File, StringRef QualifiedName) const {
  bool In = true;
  for (const ScopeRule &R : Scope) {
    bool FileOk = R.FileGlob.empty() || globMatch(R.FileGlob, File) ||
                  globMatch("*/" + R.FileGlob, File);
    bool FuncOk = R.FunctionGlob.empty() ||
                  FuncGlob{R.FunctionGlob, "", 0, 0}.matches(QualifiedName);
    if (FileOk && FuncOk)
      In = R.Include;
  }
  return In;
}

SpecLoc Spec::selectorLoc(const Probe &P, unsigned Offset) const {
  return SpecLoc{P.AtLoc.Line, P.AtLoc.Col + Offset};
}

SMDiagnostic Spec::diag(SpecLoc L, SourceMgr::DiagKind Kind, const Twine &Msg,
                        unsigned Length, StringRef FixIt) const {
  if (!SM || L.Line == 0)
    return SMDiagnostic(Path, Kind, Msg.str());
  const MemoryBuffer *Buf = SM->getMemoryBuffer(1);
  SMLoc Loc = SM->FindLocForLineAndColumn(1, L.Line, L.Col);
  if (!Loc.isValid())
    return SMDiagnostic(Path, Kind, Msg.str());
  // Keep the caret range on the line.
  const char *End = Loc.getPointer();
  while (Length && End < Buf->getBufferEnd() && *End != '\n') {
    ++End;
    --Length;
  }
  SmallVector<SMRange, 1> Ranges;
  if (End > Loc.getPointer() + 1)
    Ranges.push_back(SMRange(Loc, SMLoc::getFromPointer(End)));
  SmallVector<SMFixIt, 1> Fixes;
  if (!FixIt.empty() && End > Loc.getPointer())
    Fixes.push_back(SMFixIt(SMRange(Loc, SMLoc::getFromPointer(End)), FixIt));
  return SM->GetMessage(Loc, Kind, Msg, Ranges, Fixes);
}

} // namespace rewriter
} // namespace sonde
