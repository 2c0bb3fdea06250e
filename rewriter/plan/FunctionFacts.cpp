//===- FunctionFacts.cpp - What the kinds know of a host function ---------===//
//
// A host function's statements in preorder, the parent of each, which
// statement declares which variable, and its jumps: built once per function
// (PlanBuilder::facts) and shared by every selector kind. On them rest the
// placement questions (is this a statement position, an unbraced body?) and
// the scope question of captures (can this variable be named here?).
//
//===----------------------------------------------------------------------===//

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
/// Walks a function body in preorder, recording parents; does not enter
/// lambda bodies (they are functions of their own).
void walk(FunctionFacts &Fx, const Stmt *St, const Stmt *Parent) {
  if (!St)
    return;
  Fx.Parent[St] = Parent;
  Fx.Preorder.push_back(St);
  if (isa<SwitchCase>(St) || isa<GotoStmt>(St) || isa<AddrLabelExpr>(St))
    Fx.Jumps.push_back(St);
  if (auto *DS = dyn_cast<DeclStmt>(St))
    for (const Decl *D : DS->decls()) {
      Fx.DeclStmtOf[D] = St;
      if (auto *DD = dyn_cast<DecompositionDecl>(D))
        for (const BindingDecl *B : DD->bindings())
          Fx.DeclStmtOf[B] = St;
    }
  if (auto *L = dyn_cast<LambdaExpr>(St)) {
    for (const Expr *Init : L->capture_inits())
      walk(Fx, Init, St);
    return;
  }
  // `a < b` through a defaulted `<=>` is rewritten into `(a <=> b) < 0`:
  // the calls of that form are not written anywhere (their ranges cover
  // half an operator). Walk only the operands. Likewise the syntactic
  // form of a pseudo-object expression.
  if (auto *RB = dyn_cast<CXXRewrittenBinaryOperator>(St)) {
    walk(Fx, RB->getLHS(), St);
    walk(Fx, RB->getRHS(), St);
    return;
  }
  if (auto *PO = dyn_cast<PseudoObjectExpr>(St)) {
    walk(Fx, PO->getSyntacticForm(), St);
    return;
  }
  // A range-for's begin/end/++/* calls are implicit: walk only what the
  // user wrote. The loop variable's declaration is recorded, not entered.
  if (auto *R = dyn_cast<CXXForRangeStmt>(St)) {
    walk(Fx, R->getInit(), St);
    walk(Fx, R->getRangeInit(), St);
    if (const DeclStmt *LV = R->getLoopVarStmt()) {
      Fx.Parent[LV] = St;
      Fx.Preorder.push_back(LV);
      for (const Decl *D : LV->decls()) {
        Fx.DeclStmtOf[D] = LV;
        if (auto *DD = dyn_cast<DecompositionDecl>(D))
          for (const BindingDecl *B : DD->bindings())
            Fx.DeclStmtOf[B] = LV;
      }
    }
    walk(Fx, R->getBody(), St);
    return;
  }
  for (const Stmt *Child : St->children())
    walk(Fx, Child, St);
}
} // namespace

const FunctionFacts &PlanBuilder::facts(const HostFunction &F) {
  auto It = Facts.find(F.FD);
  if (It != Facts.end())
    return It->second;
  FunctionFacts &Fx = Facts[F.FD];
  Fx.Host = &F;
  walk(Fx, F.FD->getBody(), nullptr);
  return Fx;
}

const Stmt *PlanBuilder::parent(const FunctionFacts &Fx, const Stmt *St) const {
  auto It = Fx.Parent.find(St);
  return It == Fx.Parent.end() ? nullptr : It->second;
}

bool PlanBuilder::isUnbracedBody(const FunctionFacts &Fx,
                                 const Stmt *St) const {
  if (isa<CompoundStmt>(St))
    return false;
  const Stmt *Par = parent(Fx, St);
  // `if (c) [[unlikely]] return x;`: the statement under the attributes is
  // the body, and is braced inside them (`[[unlikely]] { ... }`).
  if (isa_and_nonnull<AttributedStmt>(Par))
    return isUnbracedBody(Fx, Par);
  if (auto *If = dyn_cast_or_null<IfStmt>(Par))
    return If->getThen() == St || If->getElse() == St;
  if (auto *F = dyn_cast_or_null<ForStmt>(Par))
    return F->getBody() == St;
  if (auto *W = dyn_cast_or_null<WhileStmt>(Par))
    return W->getBody() == St;
  if (auto *D = dyn_cast_or_null<DoStmt>(Par))
    return D->getBody() == St;
  if (auto *R = dyn_cast_or_null<CXXForRangeStmt>(Par))
    return R->getBody() == St;
  return false;
}

bool PlanBuilder::isStatementPosition(const FunctionFacts &Fx,
                                      const Stmt *St) const {
  const Stmt *Par = parent(Fx, St);
  if (!Par)
    return false;
  if (isa<CompoundStmt>(Par))
    return true;
  if (isa<AttributedStmt>(Par))
    return isStatementPosition(Fx, Par);
  if (auto *L = dyn_cast<LabelStmt>(Par))
    return L->getSubStmt() == St;
  if (auto *C = dyn_cast<SwitchCase>(Par))
    return C->getSubStmt() == St;
  return isUnbracedBody(Fx, St);
}

bool PlanBuilder::inScopeAt(const FunctionFacts &Fx, const ValueDecl *V,
                            const Stmt *At, bool AtBodyStart) const {
  if (isa<ParmVarDecl>(V))
    return true;
  if (AtBodyStart)
    return false;
  auto It = Fx.DeclStmtOf.find(V);
  if (It == Fx.DeclStmtOf.end())
    return false;
  const Stmt *Decl = It->second;
  const Stmt *Scope = parent(Fx, Decl);
  if (!Scope)
    return false;
  // At must be inside the declaring scope, and not before the declaration.
  for (const Stmt *Cur = At; Cur; Cur = parent(Fx, Cur)) {
    if (Cur == Scope)
      return !isa<CompoundStmt>(Scope) ||
             offset(SM.getExpansionLoc(At->getBeginLoc())) >=
                 offset(SM.getExpansionLoc(Decl->getBeginLoc()));
  }
  return false;
}

} // namespace rewriter
} // namespace sonde
