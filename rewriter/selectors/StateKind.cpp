//===- StateKind.cpp - The state selector kind ----------------------------===//
//
// `state:` entries: the model's state (sonde::recordState) after a call's
// statement, at entry or exit, or at the start or end of each iteration.
//
// Covered by: test/lit/selectors/state.cpp.
//
//===----------------------------------------------------------------------===//

#include "Calls.h"
#include "Emit.h"
#include "Loops.h"
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

class StateKind : public SelectorKind {
public:
  const char *name() const override { return "state"; }
  bool handles(const Probe &P) const override {
    return P.Sec == Section::State;
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    const Item &I = Pr.Q.FocusItem;
    B.needHeader("sonde/torch.h");
    if (I.Kind == TargetKind::Call) {
      forEachCall(B, Fx, Pr, /*Written=*/true,
                  [&](const CallExpr *CE, const std::string &,
                      const std::string &Short) {
                    afterCall(B, Fx, Pr, F, CE, Short);
                  });
      return;
    }
    if (I.Meta == MetaKind::Enter || I.Meta == MetaKind::Exit) {
      bool Enter = I.Meta == MetaKind::Enter;
      SiteRef R = site(B, Pr, F, Enter ? "enter" : "exit", F.FD->getLocation());
      Code T(" ");
      if (Enter) {
        T += record(B, Pr, F, R);
      } else {
        T += "::sonde::OnExit sonde_state_" + R.Tag + "([&] { ";
        T += record(B, Pr, F, R);
        T += " });";
      }
      B.atBodyStart(F, StartOrder::Hooks, T, Pr.Index);
      return;
    }
    // The start or the end of each iteration of the selected loops.
    bool End = I.Meta == MetaKind::EndLoopVar;
    for (const Stmt *L : selectLoops(B, Fx, I)) {
      if (!B.editable(L)) {
        B.skipped(L->getBeginLoc(), Pr, "loop is a macro expansion",
                  "sonde-macro");
        continue;
      }
      const Stmt *Body = loopBody(L);
      SiteRef R = site(B, Pr, F, End ? "end" : "start", L->getBeginLoc());
      Code Point = record(B, Pr, F, R);
      if (!End) {
        Code T(" ");
        T += Point;
        B.atBlockStart(Fx, Body, rank::BodyStart + int(StartOrder::Watch), T,
                       Pr.Index);
        continue;
      }
      B.atBlockEnd(Fx, Body, Point, Pr.Index);
      for (const Stmt *C : continuesOf(B, Fx, L))
        if (!B.beforeStatement(Fx, C, Point, Pr.Index))
          B.skipped(C->getBeginLoc(), Pr, "'continue' is a macro expansion",
                    "sonde-macro");
    }
  }

private:
  static SiteRef site(PlanBuilder &B, const Probe &Pr, const HostFunction &F,
                      StringRef Detail, SourceLocation At) {
    // Named after the model when it is a plain name (`model`).
    StringRef M = Pr.Model;
    std::string Name = Pr.Name;
    if (Name.empty())
      Name = isValidAsciiIdentifier(M) ? M.str() : "state";
    return B.addSite(Pr, F, "state", Name, "state:" + Detail.str(), At,
                     Pr.Model);
  }

  /// `if (GUARD) ::sonde::recordState(site, (MODEL));`
  static Code record(PlanBuilder &B, const Probe &Pr, const HostFunction &F,
                     const SiteRef &R) {
    Code C("::sonde::recordState(" + R.Var + ", (");
    C.spec(Pr.Model, Pr.ModelLoc);
    C += "));";
    return guarded(B.guard(Pr, F, R), C);
  }

  /// After the statement whose full-expression holds the call.
  void afterCall(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                 const HostFunction &F, const CallExpr *CE,
                 StringRef Short) const {
    const Stmt *Cur = CE;
    const Stmt *Par = B.parent(Fx, Cur);
    while (isa_and_nonnull<Expr>(Par)) {
      Cur = Par;
      Par = B.parent(Fx, Cur);
    }
    if (auto *DS = dyn_cast_or_null<DeclStmt>(Par)) {
      Cur = DS;
      Par = B.parent(Fx, DS);
    }
    if (!Par || !B.isStatementPosition(Fx, Cur)) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short +
                    "' is not a statement of its own (state is recorded "
                    "after the statement that makes the call)",
                "sonde-unsupported");
      return;
    }
    SiteRef R = site(B, Pr, F, "call:" + Short.str(), CE->getBeginLoc());
    if (!B.afterStatement(Fx, Cur, record(B, Pr, F, R), Pr.Index))
      B.skipped(CE->getBeginLoc(), Pr,
                "the statement of the call of '" + Short +
                    "' cannot be followed",
                "sonde-unsupported");
  }
};

} // namespace

std::unique_ptr<SelectorKind> createStateKind() {
  return std::make_unique<StateKind>();
}

} // namespace rewriter
} // namespace sonde
