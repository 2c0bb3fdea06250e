//===- RangeKind.cpp - The range selector kind ----------------------------===//
//
// `f(!A, !!B)`: a region that opens at A (`#enter`, `#loop_X`, a write of a
// variable) and closes at B (`#exit`, `#endloop_X`, a write) or with its
// scope.
//
// Covered by: test/lit/selectors/ranges.cpp;
// test/lit/constructs/loops-jumped-into.cpp.
//
//===----------------------------------------------------------------------===//

#include "ASTHelpers.h"
#include "Emit.h"
#include "Loops.h"
#include "SelectorKinds.h"

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

class RangeKind : public SelectorKind {
public:
  const char *name() const override { return "range"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    return P.Q.Focus == FocusKind::Range;
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    const Item &A = Pr.Q.RangeStart, &E = Pr.Q.RangeEnd;
    std::string Name = eventName(Pr, "range");
    // Each start point opens a CondRegion that lives to the end of its
    // scope; end points inside that scope close it early.
    struct StartPoint {
      const Stmt *Scope; ///< the compound the region lives in
      const Stmt *After; ///< start after this statement (null: scope start)
      SourceLocation Loc;
    };
    std::vector<StartPoint> Starts;
    if (A.Meta == MetaKind::Enter) {
      Starts.push_back({F.Body, nullptr, F.FD->getLocation()});
    } else if (A.Meta == MetaKind::LoopVar) {
      for (const Stmt *L : selectLoops(B, Fx, A)) {
        if (skipIfJumpedInto(B, Fx, L, Pr))
          continue;
        Starts.push_back({loopBody(L), nullptr, L->getBeginLoc()});
      }
    } else if (A.Kind == TargetKind::Variable) {
      for (const Stmt *W : writesOf(B, Fx, A.Name)) {
        if (isa_and_nonnull<CompoundStmt>(B.parent(Fx, W)))
          Starts.push_back({B.parent(Fx, W), W, W->getBeginLoc()});
        else
          B.skipped(W->getBeginLoc(), Pr,
                    "a range starts at a statement directly in a block (not "
                    "under a label, a 'case' or an unbraced body)",
                    "sonde-unsupported");
      }
    } else {
      B.skipped(F.FD->getLocation(), Pr,
                "a range starts at #enter, #loop_X or a variable",
                "sonde-unsupported");
      return;
    }
    for (const StartPoint &SP : Starts) {
      if (!B.editable(SP.Scope)) {
        B.skipped(SP.Loc, Pr, "range start is a macro expansion",
                  "sonde-macro");
        continue;
      }
      if (SP.After && jumpTargetAfter(B, Fx, SP.Scope, SP.After)) {
        // A `case` or label later in the scope could jump over the range's
        // declaration, which does not compile.
        B.skipped(SP.Loc, Pr,
                  "a label or 'case' after the range start could jump over "
                  "it",
                  "sonde-unsupported");
        continue;
      }
      const Stmt *At = SP.After ? SP.After : SP.Scope;
      RideAlong Ride =
          rideAlong(B, Fx, Pr, F, At, SP.Scope == F.Body && !SP.After, SP.Loc);
      SiteRef R = B.addSite(Pr, F, "region", Name, "range", SP.Loc,
                            A.spelling() + ".." + E.spelling(), "", Ride.Names);
      Code G = B.guard(Pr, F, R);
      std::string Var = "sonde_range_" + R.Tag;
      // End points close the region early: it is always a CondRegion.
      Code Decl = regionDecl(Pr, R, G, Ride, Var, /*Closable=*/true);
      if (SP.After) {
        B.afterStatement(Fx, SP.After, Decl, Pr.Index);
      } else {
        Code T(" ");
        T += Decl;
        B.atBlockStart(Fx, SP.Scope, rank::BodyStart + int(StartOrder::Range),
                       T, Pr.Index);
      }
      unsigned StartOff =
          SP.After ? *B.afterStmt(SP.After) : B.offset(SP.Scope->getBeginLoc());
      addEnds(B, Fx, Pr, SP.Scope, StartOff, Var, A, E);
    }
  }

private:
  static std::vector<const Stmt *>
  writesOf(const PlanBuilder &B, const FunctionFacts &Fx, StringRef Name) {
    std::vector<const Stmt *> Out;
    for (const Stmt *St : Fx.Preorder) {
      if (auto *DS = dyn_cast<DeclStmt>(St)) {
        for (const Decl *D : DS->decls())
          if (auto *V = dyn_cast<VarDecl>(D))
            if (V->getName() == Name && V->getInit())
              Out.push_back(DS);
        continue;
      }
      bool Post;
      const ValueDecl *V = writtenVar(St, Post);
      if (!V || V->getName() != Name)
        continue;
      const Stmt *N = skipTransparent(B, Fx, St);
      if (B.isStatementPosition(Fx, N))
        Out.push_back(N);
    }
    return Out;
  }

  /// Whether a jump from before `After` can land after it in `Scope`: a
  /// `case` of a switch that encloses `After`, or a goto from before it to
  /// a label after it.
  static bool jumpTargetAfter(const PlanBuilder &B, const FunctionFacts &Fx,
                              const Stmt *Scope, const Stmt *After) {
    auto Off = [&](SourceLocation L) {
      return B.offset(B.SM.getExpansionLoc(L));
    };
    unsigned From = Off(After->getEndLoc());
    for (const Stmt *St : Fx.Jumps) {
      if (auto *SC = dyn_cast<SwitchCase>(St)) {
        if (!inside(B, Fx, SC, Scope) || Off(SC->getBeginLoc()) <= From)
          continue;
        const Stmt *Sw = switchOf(B, Fx, SC);
        if (Sw && Off(Sw->getBeginLoc()) < From)
          return true;
      } else if (auto *G = dyn_cast<GotoStmt>(St)) {
        const LabelStmt *L = G->getLabel()->getStmt();
        if (L && inside(B, Fx, L, Scope) && Off(L->getBeginLoc()) > From &&
            Off(G->getBeginLoc()) < From)
          return true;
      }
    }
    return false;
  }

  void addEnds(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
               const Stmt *Scope, unsigned StartOff, const std::string &Var,
               const Item &A, const Item &E) const {
    Code Close(Var + ".close();");
    if (E.Meta == MetaKind::Exit)
      return; // the region ends with its scope
    if (E.Meta == MetaKind::EndLoopVar) {
      for (const Stmt *L : selectLoops(B, Fx, E)) {
        const Stmt *Body = loopBody(L);
        bool SameLoop = Body == Scope;
        if (!SameLoop && !inside(B, Fx, L, Scope))
          continue;
        if (!SameLoop && B.offset(L->getBeginLoc()) < StartOff)
          continue;
        B.atBlockEnd(Fx, Body, Close, Pr.Index);
      }
      return;
    }
    if (E.Kind == TargetKind::Variable) {
      for (const Stmt *W : writesOf(B, Fx, E.Name))
        if (inside(B, Fx, W, Scope) && B.offset(W->getBeginLoc()) >= StartOff)
          B.afterStatement(Fx, W, Close, Pr.Index);
      return;
    }
    if (E.Meta == MetaKind::Enter || E.Meta == MetaKind::LoopVar) {
      B.skipped(Scope->getBeginLoc(), Pr,
                "a range ends at #exit, #endloop_X or a variable",
                "sonde-unsupported");
    }
  }
};

} // namespace

std::unique_ptr<SelectorKind> createRangeKind() {
  return std::make_unique<RangeKind>();
}

} // namespace rewriter
} // namespace sonde
