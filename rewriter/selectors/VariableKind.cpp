//===- VariableKind.cpp - The variable selector kind ----------------------===//
//
// `loss`, `$t:TYPE`, `*` (in `watches:`): a local variable or parameter,
// watched where it is declared (parameters at entry) and after each write.
//
// Covered by: test/lit/selectors/variable-writes.cpp, any-local-and-type.cpp,
// odd-names.cpp; test/lit/constructs/declarations.cpp, default-init.cpp,
// bitfields.cpp, thread-local.cpp, atomic-volatile.cpp.
//
//===----------------------------------------------------------------------===//

#include "ASTHelpers.h"
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

class VariableKind : public SelectorKind {
public:
  const char *name() const override { return "variable"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    TargetKind K = P.Q.FocusItem.Kind;
    return P.Q.Focus == FocusKind::Item &&
           (K == TargetKind::Variable || K == TargetKind::AnyVariable ||
            K == TargetKind::Star);
  }

  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    const Item &I = Pr.Q.FocusItem;
    auto Selected = [&](const ValueDecl *V) {
      if (!V || !V->getDeclName().isIdentifier() || V->getName().empty() ||
          V->isImplicit())
        return false;
      if (auto *VD = dyn_cast<VarDecl>(V)) {
        if (!VD->isLocalVarDeclOrParm())
          return false;
      } else if (!isa<BindingDecl>(V)) {
        return false;
      }
      if (I.Kind == TargetKind::Variable && V->getName() != I.Name)
        return false;
      return typeMatches(B.Ctx, V->getType(), I.Type);
    };
    // Parameters fire at entry.
    for (const ParmVarDecl *PV : F.FD->parameters()) {
      if (!Selected(PV))
        continue;
      if (PV->isParameterPack()) {
        // No one statement can watch each element of a pack.
        B.skipped(PV->getLocation(), Pr,
                  "'" + PV->getName() + "' is a parameter pack",
                  "sonde-unsupported");
        continue;
      }
      auto [R, A] = site(B, Pr, F, PV, PV->getLocation(), F.Body, true, Fx);
      Code T(" ");
      T += watchStmt(R, B.guard(Pr, F, R), PV->getName(),
                     watchWriterFor(PV->getType()), A);
      B.atBodyStart(F, StartOrder::Watch, T, Pr.Index);
    }
    for (const Stmt *St : Fx.Preorder) {
      if (auto *DS = dyn_cast<DeclStmt>(St)) {
        for (const Decl *D : DS->decls()) {
          if (auto *DD = dyn_cast<DecompositionDecl>(D)) {
            for (const BindingDecl *BD : DD->bindings())
              if (Selected(BD))
                declared(B, Fx, Pr, F, BD, DS, false);
          } else if (auto *VD = dyn_cast<VarDecl>(D)) {
            if (Selected(VD) && explicitInit(VD))
              declared(B, Fx, Pr, F, VD, DS, VD->isStaticLocal());
          }
        }
        continue;
      }
      bool Post;
      const ValueDecl *V = writtenVar(St, Post);
      if (V && Selected(V))
        written(B, Fx, Pr, F, V, cast<Expr>(St), Post);
    }
  }

private:
  static bool explicitInit(const VarDecl *VD) {
    const Expr *Init = VD->getInit();
    if (!Init)
      return false;
    // `T x;` is default-initialization, whatever its init style says (a
    // class with a constructor is `callinit`, and so is `va_list ap;`): a
    // trivial class holds indeterminate values. `T x = T();` and `T x{}`
    // are written.
    if (auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()))
      if (CE->getNumArgs() == 0 && !CE->isListInitialization() &&
          !isa<CXXTemporaryObjectExpr>(CE) &&
          CE->getParenOrBraceRange().isInvalid())
        return false;
    return true;
  }

  /// A watch site of `V` and the ride-alongs it records with, computed
  /// once: a capture not in scope is said once, by this call.
  struct WatchSite {
    SiteRef R;
    RideAlong A;
  };

  WatchSite site(PlanBuilder &B, const Probe &Pr, const HostFunction &F,
                 const ValueDecl *V, SourceLocation At, const Stmt *AtStmt,
                 bool AtBodyStart, const FunctionFacts &Fx) const {
    const Item &I = Pr.Q.FocusItem;
    std::string Name = V->getNameAsString();
    std::string Recorded =
        I.Kind == TargetKind::Variable && !I.As.empty()
            ? I.As
            : (I.Kind == TargetKind::Variable && !Pr.Name.empty() ? Pr.Name
                                                                  : Name);
    RideAlong A = rideAlong(B, Fx, Pr, F, AtStmt, AtBodyStart, At);
    PrintingPolicy PP(B.LO);
    B.noteValueType(V->getType());
    // `check: finite` tests a number's bits where it is recorded; a tensor
    // or an object is recorded as asked, unchecked, and said so once.
    QualType VT = V->getType().getNonReferenceType();
    if (Pr.CheckFinite && !VT->isDependentType() && !VT->isArithmeticType())
      B.note(At, SourceNote::Warning,
             "'check: finite' of watch '" + Recorded + "': '" +
                 VT.getAsString(PP) +
                 "' is not a number; its values are recorded, not checked",
             "sonde-check");
    SiteRef R = B.addSite(Pr, F, "watch", Recorded, "var:" + Name, At, Name,
                          V->getType().getAsString(PP), A.Names);
    return {std::move(R), std::move(A)};
  }

  void declared(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                const HostFunction &F, const ValueDecl *V, const DeclStmt *DS,
                bool Static) const {
    const Stmt *Par = B.parent(Fx, DS);
    SourceLocation Loc = V->getLocation();
    if (!B.editable(DS)) {
      B.skipped(Loc, Pr,
                "declaration of '" + V->getName() + "' is a macro expansion",
                "sonde-macro");
      return;
    }
    auto Watch = [&](const Stmt *AtStmt) {
      auto [R, A] = site(B, Pr, F, V, Loc, AtStmt, false, Fx);
      return std::make_pair(R, watchStmt(R, B.guard(Pr, F, R), V->getName(),
                                         watchWriterFor(V->getType()), A));
    };
    if (B.isStatementPosition(Fx, DS)) {
      if (Static) {
        // A static local is initialized once: record that once; a
        // thread_local one once per thread, as it is initialized.
        auto [R, A] = site(B, Pr, F, V, Loc, DS, false, Fx);
        bool PerThread = cast<VarDecl>(V)->getTLSKind() != VarDecl::TLS_None;
        Code T(std::string(PerThread ? "thread_local" : "static") +
               " const bool sonde_once_" + R.Tag + " = (");
        T += watchAsExpr(R, B.guard(Pr, F, R), V->getName(),
                         watchWriterFor(V->getType()), A);
        T += ", true); (void)sonde_once_" + R.Tag + ";";
        B.afterStatement(Fx, DS, T, Pr.Index);
        return;
      }
      auto [R, T] = Watch(DS);
      B.afterStatement(Fx, DS, T, Pr.Index);
      return;
    }
    // Variables declared in conditions and range-for variables: at the
    // start of each branch or iteration, where they are in scope.
    if (auto *If = dyn_cast_or_null<IfStmt>(Par)) {
      if (If->getConditionVariableDeclStmt() == DS) {
        auto [R, T] = Watch(If->getThen());
        Code Then(" ");
        Then += T;
        B.atBlockStart(Fx, If->getThen(),
                       rank::BodyStart + int(StartOrder::Watch), Then,
                       Pr.Index);
        if (If->getElse() && !isa<IfStmt>(If->getElse()))
          B.atBlockStart(Fx, If->getElse(),
                         rank::BodyStart + int(StartOrder::Watch), Then,
                         Pr.Index);
        return;
      }
    }
    const Stmt *Body = nullptr;
    if (auto *W = dyn_cast_or_null<WhileStmt>(Par))
      if (W->getConditionVariableDeclStmt() == DS)
        Body = W->getBody();
    if (auto *R = dyn_cast_or_null<CXXForRangeStmt>(Par))
      if (R->getLoopVarStmt() == DS)
        Body = R->getBody();
    if (auto *Fo = dyn_cast_or_null<ForStmt>(Par))
      if (Fo->getConditionVariableDeclStmt() == DS)
        Body = Fo->getBody();
    if (Body) {
      auto [R, T] = Watch(Body);
      Code Start(" ");
      Start += T;
      B.atBlockStart(Fx, Body, rank::BodyStart + int(StartOrder::Watch), Start,
                     Pr.Index);
      return;
    }
    B.skipped(Loc, Pr,
              "'" + V->getName() +
                  "' is declared where no statement can follow (a for-init, "
                  "an if/switch init or a switch condition)",
              "sonde-unsupported");
  }

  void written(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
               const HostFunction &F, const ValueDecl *V, const Expr *E,
               bool PostIncDec) const {
    SourceLocation Loc = E->getExprLoc();
    if (unevaluated(B, Fx, E))
      return;
    if (!B.editable(E)) {
      B.skipped(Loc, Pr, "write of '" + V->getName() + "' is a macro expansion",
                "sonde-macro");
      return;
    }
    const Stmt *N = skipTransparent(B, Fx, E);
    const Stmt *Par = B.parent(Fx, N);
    if (B.isStatementPosition(Fx, N)) {
      auto [R, A] = site(B, Pr, F, V, Loc, N, false, Fx);
      B.afterStatement(Fx, N,
                       watchStmt(R, B.guard(Pr, F, R), V->getName(),
                                 watchWriterFor(V->getType()), A),
                       Pr.Index);
      return;
    }
    // Discarded values (a for-increment, either side of a discarded comma):
    // the watch follows with a comma.
    bool Discarded = false;
    if (auto *Fo = dyn_cast_or_null<ForStmt>(Par))
      Discarded = Fo->getInc() == N;
    if (auto *BO = dyn_cast_or_null<BinaryOperator>(Par))
      if (BO->getOpcode() == BO_Comma) {
        const Stmt *Outer = skipTransparent(B, Fx, BO);
        const Stmt *OuterPar = B.parent(Fx, Outer);
        auto *Fo = dyn_cast_or_null<ForStmt>(OuterPar);
        Discarded = BO->getLHS()->IgnoreParens() == N ||
                    B.isStatementPosition(Fx, Outer) ||
                    (Fo && Fo->getInc() == Outer);
      }
    if (Discarded) {
      auto [R, A] = site(B, Pr, F, V, Loc, N, false, Fx);
      Code T(", ");
      T += watchAsExpr(R, B.guard(Pr, F, R), V->getName(),
                       watchWriterFor(V->getType()), A);
      B.insert(B.afterToken(N->getEndLoc()), rank::AfterStmt, T, Pr.Index);
      return;
    }
    // Nested in a larger expression: pass the written lvalue through.
    if (PostIncDec) {
      B.skipped(Loc, Pr,
                "'" + V->getName() +
                    "++' inside an expression yields the old value",
                "sonde-unsupported");
      return;
    }
    if (isGuarded(Pr) || !Pr.Q.Captures.empty() || !Pr.Args.empty()) {
      B.skipped(Loc, Pr,
                "a guarded watch or one with captures cannot go inside an "
                "expression",
                "sonde-unsupported");
      return;
    }
    // passRef binds the written lvalue to a reference: a bit-field (a
    // structured binding of one) cannot be bound.
    if (E->refersToBitField()) {
      B.skipped(Loc, Pr,
                "'" + V->getName() +
                    "' is a bit-field written inside an expression",
                "sonde-unsupported");
      return;
    }
    QualType T = E->getType();
    // An assignment operator that returns void or a class by value
    // (`std::atomic`'s `a += 1` returns the new int): the result is not the
    // variable. A scalar result is the value written: it passes through
    // passValue unchanged; anything else is skipped.
    bool Scalar = !E->isGLValue() && T->isScalarType();
    if (!E->isGLValue() && !Scalar) {
      B.skipped(Loc, Pr,
                "the write of '" + V->getName() +
                    "' inside an expression does not yield the variable",
                "sonde-unsupported");
      return;
    }
    // No ride-alongs here (refused above): the site alone.
    SiteRef R = site(B, Pr, F, V, Loc, N, false, Fx).R;
    B.wrapExpr(E,
               (Scalar ? "::sonde::passValue(" : "::sonde::passRef(") + R.Var +
                   ", ",
               ")", Pr.Index);
  }
};

} // namespace

std::unique_ptr<SelectorKind> createVariableKind() {
  return std::make_unique<VariableKind>();
}

} // namespace rewriter
} // namespace sonde
