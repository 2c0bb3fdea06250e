//===- FunctionRegionKind.cpp - The function-region selector kind ---------===//
//
// `Net::forward`: the body of each matched function as one region (or an
// instant, in `mode: instant`), declared at the start of the body.
//
// Covered by: test/lit/selectors/function-region.cpp, context-frames.cpp,
// scope-and-files.cpp, torch-module.cpp; test/lit/constructs/functions.cpp,
// hosts.cpp, body-start-order.cpp.
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

std::string unqualified(const FunctionDecl *FD) {
  return FD->getNameAsString();
}

class FunctionRegionKind : public SelectorKind {
public:
  const char *name() const override { return "function-region"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    return P.Q.Focus == FocusKind::Function;
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    RideAlong A = rideAlong(B, Fx, Pr, F, F.Body, true, F.FD->getLocation());
    SiteRef R = B.addSite(Pr, F, "region", eventName(Pr, unqualified(F.FD)),
                          "body", F.FD->getLocation(), "", "", A.Names);
    Code G = B.guard(Pr, F, R);
    Code T(" ");
    T += regionDecl(Pr, R, G, A, "sonde_region_" + R.Tag);
    B.atBodyStart(F, StartOrder::Region, T, Pr.Index);
  }
};

} // namespace

std::unique_ptr<SelectorKind> createFunctionRegionKind() {
  return std::make_unique<FunctionRegionKind>();
}

} // namespace rewriter
} // namespace sonde
