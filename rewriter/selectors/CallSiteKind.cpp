//===- CallSiteKind.cpp - The call-site selector kind ---------------------===//
//
// `f > g()`: each call of a matched callee as a region, a temporary region
// in front of a whole full-expression, or a lambda around a call nested in a
// larger expression.
//
// Covered by: test/lit/selectors/call-sites.cpp, torch-module-holder.cpp;
// test/lit/constructs/constexpr-calls.cpp, noreturn.cpp, packs-folds.cpp,
// lifetime-wrappers.cpp, spaceship.cpp, varargs-setjmp.cpp.
//
//===----------------------------------------------------------------------===//

#include "ASTHelpers.h"
#include "Calls.h"
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

class CallSiteKind : public SelectorKind {
public:
  const char *name() const override { return "call-site"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    return P.Q.Focus == FocusKind::Item &&
           P.Q.FocusItem.Kind == TargetKind::Call;
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    forEachCall(B, Fx, Pr, /*Written=*/false,
                [&](const CallExpr *CE, const std::string &Callee,
                    const std::string &Short) {
                  instrument(B, Fx, Pr, F, CE, Callee, Short);
                });
  }

private:
  void instrument(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                  const HostFunction &F, const CallExpr *CE,
                  const std::string &Callee, const std::string &Short) const {
    const Item &I = Pr.Q.FocusItem;
    std::string Name = !I.As.empty() ? I.As : eventName(Pr, Short);
    const Stmt *N = skipTransparent(B, Fx, CE);
    const Stmt *Par = B.parent(Fx, N);
    bool Whole =
        B.isStatementPosition(Fx, N) || isa_and_nonnull<ReturnStmt>(Par);
    // `x = f();` as a statement: the assignment adds nothing worth
    // excluding from the region.
    bool AssignedRHS = false;
    if (auto *BO = dyn_cast_or_null<BinaryOperator>(Par))
      AssignedRHS = BO->isAssignmentOp() && BO->getRHS() == N;
    if (auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Par))
      AssignedRHS = OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
                    OC->getArg(1) == N;
    if (AssignedRHS && B.isStatementPosition(Fx, skipTransparent(B, Fx, Par)))
      Whole = true;
    if (auto *DS = dyn_cast_or_null<DeclStmt>(Par))
      if (auto *VD = dyn_cast_or_null<VarDecl>(DS->getSingleDecl()))
        Whole = !VD->getType()->isReferenceType() && VD->getInit() == N;
    // A call that never returns (exit, longjmp, abort) would leave its
    // region open, and wrapping it hides [[noreturn]] from g++'s flow
    // analysis (-Winfinite-recursion, -Wreturn-type under -Werror).
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->isNoReturn()) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' does not return", "sonde-unsupported");
      return;
    }
    RideAlong A = rideAlong(B, Fx, Pr, F, CE, false, CE->getBeginLoc());
    // Nested in a larger expression, a lambda runs exactly the call: decide
    // before the site exists (a skipped site would be an unused variable).
    if (!Whole) {
      std::optional<std::string> Why = whyNotWrappable(CE);
      if (!Why && !A.empty())
        Why = "captures and args need the call as a statement of its own";
      if (Why) {
        B.skipped(
            CE->getBeginLoc(), Pr,
            "call of '" + Short +
                "' inside an expression cannot be wrapped safely: " + *Why,
            "sonde-unsupported");
        return;
      }
    }
    SiteRef R = B.addSite(Pr, F, "region", Name, "call:" + Short,
                          CE->getBeginLoc(), Short + "()", "", A.Names);
    Code G = B.guard(Pr, F, R);
    if (Whole) {
      // The call is its whole full-expression: a temporary region lives
      // exactly as long.
      Code Open("((void)");
      if (G.empty() && Pr.Mode == ModeKind::Region) {
        Open += "::sonde::InsertedRegion(";
        Open += regionSite(R, A);
      } else {
        Open += "::sonde::CondRegion(";
        Open += condition(G);
        Open += ", " + R.Var;
        Open += A.Values;
      }
      Open += "), ";
      B.wrapExpr(CE, Open, ")", Pr.Index);
      return;
    }
    Code Open("::sonde::call(");
    Open += condition(G);
    Open += ", " + R.Var + ", [&]() -> decltype(auto) { return ";
    B.wrapExprInLambda(CE, Open, "; })", Pr.Index);
  }
};

} // namespace

std::unique_ptr<SelectorKind> createCallSiteKind() {
  return std::make_unique<CallSiteKind>();
}

} // namespace rewriter
} // namespace sonde
