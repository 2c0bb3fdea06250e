//===- ApiLoader.cpp - Entries of apis: -----------------------------------===//
//
// An `apis:` entry records every call of a library function: `call:` a
// callee glob, `within:` a function selector for where the calls are made.
// Its keys are read through the key table (ProbeKeys.cpp); here the two are
// parsed and the entry becomes the call-site query `WITHIN > CALL()` that
// the selectors match like any other.
//
//===----------------------------------------------------------------------===//

#include "ProbeKeys.h"
#include "SpecLoaders.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

void loadApi(SpecChecks &C, const YAML::Node &N) {
  if (!N.IsMap()) {
    C.error(C.Pos.entryLoc(N), "an 'apis' entry is a map with at least 'call'");
    return;
  }
  ProbeDraft D;
  Probe &P = D.P;
  P.Sec = Section::Apis;
  P.Index = C.S.Probes.size();
  P.Category = "api";
  P.Summary = SummaryKind::Shape;
  if (!readProbeKeys(C, N, Section::Apis, D))
    return;
  if (!D.HasCall) {
    if (!N["call"])
      C.error(C.Pos.loc(N), "'apis' entry has no 'call' (a callee glob such as "
                            "'*::step' or 'torch::*')");
    return;
  }
  // The callee: one qualified-name glob; `()` may be written.
  StringRef Call = StringRef(D.Call).trim();
  Call.consume_back("()");
  if (Call.trim().empty()) {
    C.error(D.CallLoc, "'call' is empty; write a callee glob such as "
                       "'*::step' or 'torch::*'");
    return;
  }
  Expected<Selector> CS = parseSelector(Call);
  if (!CS) {
    handleAllErrors(CS.takeError(), [&](const SelectorError &E) {
      C.selectorError(D.CallLoc, E);
    });
    return;
  }
  if (CS->Frames.size() != 1 || !CS->Frames[0].Func ||
      CS->Frames[0].HasParens || Call.empty()) {
    C.error(D.CallLoc,
            "'call' is a callee glob such as 'torch::*', '*::step' or "
            "'torch::nn::functional::*'; put the calling function in "
            "'within'",
            D.Call.size());
    return;
  }
  Query Q;
  Q.Host = FuncGlob{"*", "", 0, 0};
  if (D.HasWithin) {
    Expected<Selector> WS = parseSelector(D.Within);
    Expected<Query> WQ = WS ? normalize(*WS) : Expected<Query>(WS.takeError());
    if (!WQ) {
      handleAllErrors(WQ.takeError(), [&](const SelectorError &E) {
        C.selectorError(D.WithinLoc, E);
      });
      return;
    }
    // `train > step` reads its bare last frame as a variable of train:
    // here it names a function.
    const Item &FI = WQ->FocusItem;
    if (WQ->Focus == FocusKind::Item && FI.Kind == TargetKind::Variable &&
        FI.Type.empty() && FI.As.empty() && WQ->Captures.empty()) {
      WQ->Context.push_back(WQ->Host);
      WQ->Host = FuncGlob{FI.Name, "", FI.Offset, FI.Length};
      WQ->Focus = FocusKind::Function;
    }
    if (WQ->Focus != FocusKind::Function || !WQ->Captures.empty()) {
      C.error(D.WithinLoc,
              "'within' is a function selector ('train_epoch', "
              "'train > Trainer::*'), not '" +
                  D.Within + "'",
              D.Within.size());
      return;
    }
    Q.Context = WQ->Context;
    Q.Host = WQ->Host;
  }
  Q.Focus = FocusKind::Item;
  Q.FocusItem.Kind = TargetKind::Call;
  Q.FocusItem.Callee = *CS->Frames[0].Func;
  P.Q = std::move(Q);
  P.At = (D.HasWithin ? D.Within + " > " : "") + Call.str() + "()";
  P.AtLoc = D.CallLoc;
  C.S.Probes.push_back(std::move(P));
}

} // namespace rewriter
} // namespace sonde
