//===- EntryExitKind.cpp - The entry-exit selector kind -------------------===//
//
// `#enter`, `#exit`, `#error`: an instant at the start of the body, or a
// hook that fires as the body's scope unwinds (every exit, or an exception).
//
// Covered by: test/lit/selectors/entry-exit.cpp, captures.cpp;
// test/lit/constructs/user-warnings.cpp.
//
//===----------------------------------------------------------------------===//

#include "Emit.h"
#include "SelectorKinds.h"

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

class EntryExitKind : public SelectorKind {
public:
  const char *name() const override { return "entry-exit"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    MetaKind M = P.Q.FocusItem.Meta;
    return P.Q.Focus == FocusKind::Item &&
           (M == MetaKind::Enter || M == MetaKind::Exit ||
            M == MetaKind::Error);
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    const Item &I = Pr.Q.FocusItem;
    StringRef What = I.Meta == MetaKind::Enter  ? "enter"
                     : I.Meta == MetaKind::Exit ? "exit"
                                                : "error";
    std::string Name = !I.As.empty() ? I.As : eventName(Pr, What);
    RideAlong A = rideAlong(B, Fx, Pr, F, F.Body, true, F.FD->getLocation());
    SiteRef R = B.addSite(Pr, F, "instant", Name, What, F.FD->getLocation(),
                          I.spelling(), "", A.Names);
    Code G = B.guard(Pr, F, R);
    Code Point = instantStmt(R, G, A);
    Code T(" ");
    if (I.Meta == MetaKind::Enter) {
      T += Point;
    } else {
      // The hook runs as the body's scope unwinds, whatever the exit path.
      T += std::string(I.Meta == MetaKind::Exit ? "::sonde::OnExit"
                                                : "::sonde::OnUnwind") +
           " sonde_" + What.str() + "_" + R.Tag + "([&] { ";
      T += Point;
      T += " });";
    }
    B.atBodyStart(F, StartOrder::Hooks, T, Pr.Index);
  }
};

} // namespace

std::unique_ptr<SelectorKind> createEntryExitKind() {
  return std::make_unique<EntryExitKind>();
}

} // namespace rewriter
} // namespace sonde
