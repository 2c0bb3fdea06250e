//===- LoopKind.cpp - The loop selector kind ------------------------------===//
//
// `#loop_X`, `#loop@N`, `#endloop_X`: a loop as a region (`.block`, and a
// range-for's fetch `.iter` through sonde::iterate), or a point at the start
// or end of each iteration (instants, or watches of the iteration index).
//
// Covered by: test/lit/selectors/loops.cpp, fields.cpp, torch-module.cpp;
// test/lit/constructs/loops-jumped-into.cpp, range-handover-refused.cpp,
// template-range-for.cpp, unbraced-bodies.cpp, switch-labels.cpp.
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

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

std::string loopBase(const Probe &Pr, const Item &I) {
  if (!I.As.empty())
    return I.As;
  std::string Fallback = I.Name.empty() ? "loop" : I.Name;
  return eventName(Pr, Fallback);
}

/// Whether `sonde::iterate` can wrap the range of `R` (its begin() is a
/// member or the range is an array, so std::begin finds it).
bool iterable(const CXXForRangeStmt *R) {
  const Expr *Init = R->getRangeInit();
  if (!Init || isa<InitListExpr>(Init->IgnoreImplicit()) ||
      isa<CXXStdInitializerListExpr>(Init->IgnoreImplicit()))
    return false;
  QualType T = Init->getType();
  if (T->isDependentType()) {
    // In a template the type is unknown, and so is which begin() the loop
    // finds (sonde::iterate finds the same ones) and whether a prvalue
    // range could be moved into the wrapper: only a named variable or
    // member, an lvalue whatever its type, is wrapped.
    const Expr *E = Init->IgnoreParens();
    if (auto *DRE = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl>(DRE->getDecl());
    if (auto *ME = dyn_cast<MemberExpr>(E))
      return isa<FieldDecl>(ME->getMemberDecl()) &&
             isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
    return false;
  }
  if (T->isArrayType())
    return true;
  const DeclStmt *BeginStmt = R->getBeginStmt();
  if (!BeginStmt)
    return false;
  auto *BV = dyn_cast<VarDecl>(BeginStmt->getSingleDecl());
  if (!BV || !BV->getInit())
    return false;
  const Expr *BI = BV->getInit()->IgnoreImplicit();
  if (auto *CE = dyn_cast<CXXConstructExpr>(BI))
    if (CE->getNumArgs() == 1)
      BI = CE->getArg(0)->IgnoreImplicit();
  return isa<CXXMemberCallExpr>(BI);
}

/// How the range of range-for `R` goes into sonde::iterate without a copy
/// or move the loop did not make. An lvalue, or a prvalue the language may
/// copy anyway, goes in as it is. A prvalue of a class with its own copy,
/// move or destructor was moved into the wrapper: it goes in as a lambda
/// that makes it inside (`Made`), unless the lambda would change the range
/// (the reason is returned: then the fetch is not recorded).
std::string rangeHandover(const PlanBuilder &B, const CXXForRangeStmt *R,
                          bool &Made) {
  Made = false;
  const Expr *Init = R->getRangeInit();
  if (!Init || Init->isTypeDependent())
    return "";
  const Expr *E = Init->IgnoreImplicit();
  if (!E->isPRValue())
    return "";
  const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl();
  if (!RD || permittedCopy(RD))
    return "";
  if (mentionsBinding(E) || E->containsUnexpandedParameterPack())
    return "the range is a temporary made from a structured binding, "
           "__func__ or a parameter pack, which sonde::iterate could only "
           "move in";
  if (B.LO.CPlusPlus23 && hasTemporary(E))
    return "in C++23 the temporaries inside the range live as long as the "
           "loop, which making the range inside sonde::iterate would end";
  Made = true;
  return "";
}

/// Wraps the range of `R` in `Fn(Args, range)`, or `FnMade(Args, [&]() ->
/// decltype(auto) { return range; })` when it is made in place.
void wrapRangeInit(PlanBuilder &B, const CXXForRangeStmt *R, bool Made,
                   llvm::StringRef Fn, const Code &Args) {
  Code Open("::sonde::");
  Open += Fn.str() + (Made ? "Made(" : "(");
  Open += Args;
  if (!Made) {
    Open += ", ";
    B.wrapExpr(R->getRangeInit(), Open, ")");
    return;
  }
  Open += ", [&]() -> decltype(auto) { return ";
  B.wrapExprInLambda(R->getRangeInit(), Open, "; })");
}

class LoopKind : public SelectorKind {
public:
  const char *name() const override { return "loop"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    return P.Q.Focus == FocusKind::Item && P.Q.FocusItem.isLoopMeta();
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    const Item &I = Pr.Q.FocusItem;
    for (const Stmt *L : selectLoops(B, Fx, I)) {
      if (!B.editable(L)) {
        B.skipped(L->getBeginLoc(), Pr, "loop is a macro expansion",
                  "sonde-macro");
        continue;
      }
      if (skipIfJumpedInto(B, Fx, L, Pr))
        continue;
      const Stmt *Body = loopBody(L);
      bool End = I.Meta == MetaKind::EndLoopVar;
      if (Pr.Sec == Section::Watches || End)
        collectPoint(B, Fx, Pr, F, L, Body, End);
      else
        collectRegion(B, Fx, Pr, F, L, Body);
    }
  }

private:
  void collectRegion(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                     const HostFunction &F, const Stmt *L,
                     const Stmt *Body) const {
    const Item &I = Pr.Q.FocusItem;
    std::string Base = loopBase(Pr, I);
    RideAlong A = rideAlong(B, Fx, Pr, F, Body, false, L->getBeginLoc());
    auto *R = dyn_cast<CXXForRangeStmt>(L);
    // A range-for's fetch (`.iter`) is recorded too, when its range can go
    // into sonde::iterate unchanged.
    bool Iterable = false, Made = false;
    if (R && Pr.Mode == ModeKind::Region) {
      Iterable = iterable(R);
      std::string Why;
      StringRef Flag = "sonde-copy";
      if (Iterable) {
        Why = rangeHandover(B, R, Made);
      } else if (R->getRangeInit() && R->getRangeInit()->isTypeDependent()) {
        Why = "the range's type depends on a template parameter and it is "
              "not a named variable";
        Flag = "sonde-unsupported";
      }
      if (!Why.empty()) {
        B.note(L->getBeginLoc(), SourceNote::Warning,
               "probe '" + Pr.At + "': " + Why + "; '" + Base +
                   ".iter' (the fetch) is not recorded, only '" + Base +
                   ".block'",
               Flag);
        Iterable = false;
      }
    }
    if (Iterable && A.empty() && Pr.Q.Context.empty() && Pr.When.empty() &&
        Pr.Every <= 1 && B.editable(R->getRangeInit())) {
      // A range-for records the fetch (`.iter`) and the body (`.block`).
      SiteRef Fetch = B.addSite(Pr, F, "loop", Base + ".iter", "iter",
                                L->getBeginLoc(), I.spelling());
      SiteRef Block = B.addSite(Pr, F, "loop", Base + ".block", "block",
                                L->getBeginLoc(), I.spelling());
      wrapRangeInit(B, R, Made, "iterate", Code(Fetch.Var + ", " + Block.Var));
      return;
    }
    SiteRef Block = B.addSite(Pr, F, "loop", Base + ".block", "block",
                              L->getBeginLoc(), I.spelling(), "", A.Names);
    Code G = B.guard(Pr, F, Block);
    if (Iterable && B.editable(R->getRangeInit())) {
      // The body carries args or a guard: the fetch is recorded on its own,
      // in context frames only (the loop's own names are not in scope in
      // the range).
      SiteRef Fetch = B.addSite(Pr, F, "loop", Base + ".iter", "iter",
                                L->getBeginLoc(), I.spelling());
      Code On;
      for (const FuncGlob &C : Pr.Q.Context) {
        if (!On.empty())
          On += " && ";
        On += "::sonde::inFrame(" + B.frameVar(C) + ")";
      }
      Code Args = condition(On);
      Args += ", " + Fetch.Var;
      wrapRangeInit(B, R, Made, "iterateFetch", Args);
    }
    std::string LoopVar = "sonde_loop_" + Block.Tag;
    if (!B.wrapStatement(L,
                         "::sonde::Loop " + LoopVar + "(" + Block.Var + ");")) {
      B.skipped(L->getBeginLoc(), Pr, "loop cannot be braced", "sonde-edit");
      return;
    }
    Code Iter;
    if (G.empty() && A.empty()) {
      Iter +=
          "::sonde::Iteration sonde_iter_" + Block.Tag + "(" + LoopVar + ");";
    } else {
      Iter += "::sonde::CondIteration sonde_iter_" + Block.Tag + "(";
      Iter += condition(G);
      Iter += ", " + LoopVar;
      Iter += A.Values;
      Iter += ");";
    }
    Code T(" ");
    T += Iter;
    B.atBlockStart(Fx, Body, rank::BodyStart + int(StartOrder::Region), T,
                   Pr.Index);
  }

  void collectPoint(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                    const HostFunction &F, const Stmt *L, const Stmt *Body,
                    bool End) const {
    const Item &I = Pr.Q.FocusItem;
    bool Watch = Pr.Sec == Section::Watches;
    std::string Name = Watch && !I.As.empty() ? I.As : loopBase(Pr, I);
    RideAlong A = rideAlong(B, Fx, Pr, F, Body, false, L->getBeginLoc());
    SiteRef R = B.addSite(Pr, F, Watch ? "watch" : "instant", Name,
                          End ? "end" : "start", L->getBeginLoc(), I.spelling(),
                          Watch ? "uint64_t" : "", A.Names);
    Code G = B.guard(Pr, F, R);
    std::string LoopVar = "sonde_loop_" + R.Tag;
    std::string Index = "sonde_i_" + R.Tag;
    if (!B.wrapStatement(L, "::sonde::Loop " + LoopVar + "(" + R.Var + ");")) {
      B.skipped(L->getBeginLoc(), Pr, "loop cannot be braced", "sonde-edit");
      return;
    }
    Code Start(" const ::std::uint64_t " + Index + " = " + LoopVar +
               ".Next++;");
    if (!End) {
      Start += " ";
      Start += Watch ? watchStmt(R, G, Index, WatchWriter::UInt, A)
                     : instantStmt(R, G, A);
    }
    B.atBlockStart(Fx, Body, rank::BodyStart + int(StartOrder::Watch), Start,
                   Pr.Index);
    if (!End)
      return;
    Code Point = Watch ? watchStmt(R, G, Index, WatchWriter::UInt, A)
                       : instantStmt(R, G, A);
    B.atBlockEnd(Fx, Body, Point, Pr.Index);
    for (const Stmt *C : continuesOf(B, Fx, L))
      if (!B.beforeStatement(Fx, C, Point, Pr.Index))
        B.skipped(C->getBeginLoc(), Pr, "'continue' is a macro expansion",
                  "sonde-macro");
  }
};

} // namespace

std::unique_ptr<SelectorKind> createLoopKind() {
  return std::make_unique<LoopKind>();
}

} // namespace rewriter
} // namespace sonde
