//===- Loops.cpp - Finding the loops a selector names ---------------------===//
//
// See Loops.h.
//
//===----------------------------------------------------------------------===//

#include "Loops.h"

#include "ASTHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

/// The names a loop iterates over: the for-init's variables (or the one it
/// assigns), the range-for variable or its bindings.
std::vector<std::string> loopVars(const Stmt *L) {
  std::vector<std::string> Out;
  if (auto *F = dyn_cast<ForStmt>(L)) {
    if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D))
          Out.push_back(V->getNameAsString());
    } else if (auto *E = dyn_cast_or_null<Expr>(F->getInit())) {
      bool Post;
      if (const ValueDecl *V = writtenVar(E->IgnoreParens(), Post))
        Out.push_back(V->getNameAsString());
    }
  } else if (auto *W = dyn_cast<WhileStmt>(L)) {
    // `while (auto batch = loader.next())` loops over `batch`.
    if (const VarDecl *V = W->getConditionVariable())
      Out.push_back(V->getNameAsString());
  } else if (auto *R = dyn_cast<CXXForRangeStmt>(L)) {
    const VarDecl *V = R->getLoopVariable();
    if (auto *DD = dyn_cast<DecompositionDecl>(V)) {
      for (const BindingDecl *B : DD->bindings())
        Out.push_back(B->getNameAsString());
    } else {
      Out.push_back(V->getNameAsString());
    }
  }
  return Out;
}

bool isLoop(const Stmt *St) {
  return isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St) ||
         isa<CXXForRangeStmt>(St);
}

/// Whether a jump from outside loop `L` can land inside its body: a `case`
/// of a switch outside the loop (Duff's device), or a label that a goto
/// outside the loop targets or whose address is taken. A declaration at
/// the start of the body (an Iteration, a Loop counter) would be jumped
/// over, which does not compile.
bool jumpedInto(const PlanBuilder &B, const FunctionFacts &Fx, const Stmt *L) {
  const Stmt *Body = loopBody(L);
  for (const Stmt *St : Fx.Jumps) {
    if (auto *SC = dyn_cast<SwitchCase>(St)) {
      if (!inside(B, Fx, SC, Body))
        continue;
      const Stmt *Sw = switchOf(B, Fx, SC);
      if (Sw && !inside(B, Fx, Sw, Body))
        return true;
    } else if (auto *G = dyn_cast<GotoStmt>(St)) {
      const LabelStmt *Target = G->getLabel()->getStmt();
      if (Target && inside(B, Fx, Target, Body) && !inside(B, Fx, G, Body))
        return true;
    } else if (auto *AL = dyn_cast<AddrLabelExpr>(St)) {
      const LabelStmt *Target = AL->getLabel()->getStmt();
      if (Target && inside(B, Fx, Target, Body))
        return true;
    }
  }
  return false;
}

} // namespace

const Stmt *loopBody(const Stmt *L) {
  if (auto *F = dyn_cast<ForStmt>(L))
    return F->getBody();
  if (auto *W = dyn_cast<WhileStmt>(L))
    return W->getBody();
  if (auto *D = dyn_cast<DoStmt>(L))
    return D->getBody();
  if (auto *R = dyn_cast<CXXForRangeStmt>(L))
    return R->getBody();
  return nullptr;
}

/// Loops of the host function an item selects.
std::vector<const Stmt *> selectLoops(PlanBuilder &B, const FunctionFacts &Fx,
                                      const Item &I) {
  std::vector<const Stmt *> Out;
  for (const Stmt *St : Fx.Preorder) {
    if (!isLoop(St))
      continue;
    switch (I.Meta) {
    case MetaKind::AnyLoop:
      Out.push_back(St);
      break;
    case MetaKind::LoopAtLine:
      if (B.line(St->getBeginLoc()) == I.Line)
        Out.push_back(St);
      break;
    case MetaKind::LoopVar:
    case MetaKind::EndLoopVar:
      for (const std::string &V : loopVars(St))
        if (V == I.Name) {
          Out.push_back(St);
          break;
        }
      break;
    default:
      break;
    }
  }
  return Out;
}

/// `continue` statements that continue `Loop` (not an inner loop).
std::vector<const Stmt *>
continuesOf(const PlanBuilder &B, const FunctionFacts &Fx, const Stmt *Loop) {
  std::vector<const Stmt *> Out;
  for (const Stmt *St : Fx.Preorder) {
    if (!isa<ContinueStmt>(St))
      continue;
    const Stmt *Cur = B.parent(Fx, St);
    while (Cur && !isLoop(Cur))
      Cur = B.parent(Fx, Cur);
    if (Cur == Loop)
      Out.push_back(St);
  }
  return Out;
}

/// Skips loop `L` for probe `Pr`, with the note, when a jump from outside
/// lands in its body (see jumpedInto).
bool skipIfJumpedInto(PlanBuilder &B, const FunctionFacts &Fx, const Stmt *L,
                      const Probe &Pr) {
  if (!jumpedInto(B, Fx, L))
    return false;
  B.skipped(L->getBeginLoc(), Pr,
            "a 'case' or label inside the loop is jumped to from outside it",
            "sonde-unsupported");
  return true;
}

} // namespace rewriter
} // namespace sonde
