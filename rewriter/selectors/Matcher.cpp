//===- Matcher.cpp - Selector kinds over the AST --------------------------===//
//
// One class per kind of focus. Each finds its sites in one function and
// describes the code to insert through the PlanBuilder; nothing is edited
// here.
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// The event name: `name:`, else the category's child (`compute.forward`
/// gives `forward`), else `Fallback`.
std::string eventName(const Probe &Pr, StringRef Fallback) {
  if (!Pr.Name.empty())
    return Pr.Name;
  StringRef C = Pr.Category;
  size_t Dot = C.find('.');
  if (Dot != StringRef::npos && !C.ends_with(".init"))
    return C.substr(Dot + 1).str();
  return Fallback.str();
}

/// Entries of `probes:` and `watches:` (`apis:` and `state:` have kinds of
/// their own).
bool isClassic(const Probe &P) {
  return P.Sec == Section::Probes || P.Sec == Section::Watches;
}

/// Strips the nodes that do not change what an expression is.
const Stmt *skipTransparent(const PlanBuilder &B, const FunctionFacts &Fx,
                            const Stmt *St) {
  while (true) {
    const Stmt *Par = B.parent(Fx, St);
    if (Par && (isa<ParenExpr>(Par) || isa<ImplicitCastExpr>(Par) ||
                isa<ExprWithCleanups>(Par) || isa<CXXBindTemporaryExpr>(Par) ||
                isa<MaterializeTemporaryExpr>(Par) || isa<FullExpr>(Par))) {
      St = Par;
      continue;
    }
    return St;
  }
}

/// Whether `St` is in an unevaluated or constant context (sizeof,
/// decltype, noexcept, typeid, `if constexpr` conditions).
bool unevaluated(const PlanBuilder &B, const FunctionFacts &Fx,
                 const Stmt *St) {
  for (const Stmt *Cur = St, *Par = B.parent(Fx, St); Par;
       Cur = Par, Par = B.parent(Fx, Par)) {
    if (isa<UnaryExprOrTypeTraitExpr>(Par) || isa<CXXNoexceptExpr>(Par) ||
        isa<CXXTypeidExpr>(Par) || isa<ConstantExpr>(Par))
      return true;
    if (auto *If = dyn_cast<IfStmt>(Par))
      if (If->isConstexpr() && If->getCond() == Cur)
        return true;
    if (auto *DS = dyn_cast<DeclStmt>(Par))
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D))
          if (V->isConstexpr() && V->getInit() == Cur)
            return true;
  }
  return false;
}

/// The variable a write expression writes, if it is a plain name.
const ValueDecl *writtenVar(const Stmt *St, bool &PostIncDec) {
  PostIncDec = false;
  const Expr *Target = nullptr;
  if (auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->isAssignmentOp())
      Target = BO->getLHS();
  } else if (auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (UO->isIncrementDecrementOp()) {
      Target = UO->getSubExpr();
      PostIncDec = UO->isPostfix();
    }
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(St)) {
    OverloadedOperatorKind K = OC->getOperator();
    bool Assign = K == OO_Equal || K == OO_PlusEqual || K == OO_MinusEqual ||
                  K == OO_StarEqual || K == OO_SlashEqual ||
                  K == OO_PercentEqual || K == OO_AmpEqual ||
                  K == OO_PipeEqual || K == OO_CaretEqual ||
                  K == OO_LessLessEqual || K == OO_GreaterGreaterEqual;
    bool Inc = K == OO_PlusPlus || K == OO_MinusMinus;
    if ((Assign || Inc) && OC->getNumArgs() >= 1) {
      Target = OC->getArg(0);
      PostIncDec = Inc && OC->getNumArgs() == 2;
    }
  } else if (auto *BO = dyn_cast<CXXRewrittenBinaryOperator>(St)) {
    (void)BO;
  }
  if (!Target)
    return nullptr;
  if (auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
    return DRE->getDecl();
  return nullptr;
}

/// Names a type may go by: as written, through each typedef, canonical.
std::vector<std::string> typeNames(ASTContext &Ctx, QualType T) {
  std::vector<std::string> Out;
  T = T.getNonReferenceType().getUnqualifiedType();
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  QualType Cur = T;
  for (int Guard = 0; Guard < 16; ++Guard) {
    Out.push_back(Cur.getUnqualifiedType().getAsString(PP));
    if (auto *TT = dyn_cast<TypedefType>(Cur.getTypePtr()))
      Out.push_back(TT->getDecl()->getQualifiedNameAsString());
    QualType Next = Cur.getSingleStepDesugaredType(Ctx);
    if (Next == Cur)
      break;
    Cur = Next;
  }
  QualType Can = T.getCanonicalType().getUnqualifiedType();
  Out.push_back(Can.getAsString(PP));
  if (auto *RD = Can->getAsCXXRecordDecl())
    Out.push_back(RD->getQualifiedNameAsString());
  return Out;
}

/// Resolves a concrete qualified type name (`torch::Tensor`) by walking
/// namespaces, their using-directives and aliases. Null if not found.
const Type *resolveTypeName(ASTContext &Ctx, StringRef Name) {
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, "::");
  std::vector<const DeclContext *> Scopes = {Ctx.getTranslationUnitDecl()};
  for (size_t I = 0; I < Parts.size(); ++I) {
    bool Last = I + 1 == Parts.size();
    std::vector<const DeclContext *> Next;
    const Type *Found = nullptr;
    std::vector<const DeclContext *> Work = Scopes;
    for (size_t W = 0; W < Work.size() && W < 64; ++W) {
      const DeclContext *DC = Work[W];
      DeclarationName DN = &Ctx.Idents.get(Parts[I]);
      for (const NamedDecl *ND : DC->lookup(DN)) {
        if (auto *US = dyn_cast<UsingShadowDecl>(ND))
          ND = US->getTargetDecl();
        if (Last) {
          if (auto *TD = dyn_cast<TypeDecl>(ND))
            Found = Ctx.getTypeDeclType(TD).getCanonicalType().getTypePtr();
        } else if (auto *NS = dyn_cast<NamespaceDecl>(ND)) {
          Next.push_back(NS);
        } else if (auto *NA = dyn_cast<NamespaceAliasDecl>(ND)) {
          Next.push_back(NA->getNamespace());
        } else if (auto *RD = dyn_cast<CXXRecordDecl>(ND)) {
          Next.push_back(RD);
        }
      }
      if (Found)
        return Found;
      if (auto *NS = dyn_cast<NamespaceDecl>(DC))
        for (const UsingDirectiveDecl *UD : NS->using_directives())
          Work.push_back(UD->getNominatedNamespace());
    }
    Scopes = std::move(Next);
    if (Scopes.empty())
      return nullptr;
  }
  return nullptr;
}

/// `:TYPE` filters by the declared type, written or canonical.
bool typeMatches(ASTContext &Ctx, QualType T, StringRef Glob) {
  if (Glob.empty())
    return true;
  bool Qualified = Glob.contains("::");
  for (const std::string &N : typeNames(Ctx, T)) {
    if (globMatch(Glob, N))
      return true;
    if (!Qualified) {
      size_t Colons = StringRef(N).rfind("::");
      if (Colons != StringRef::npos &&
          globMatch(Glob, StringRef(N).substr(Colons + 2)))
        return true;
    }
  }
  if (Glob.find_first_of("*?") == StringRef::npos)
    if (const Type *R = resolveTypeName(Ctx, Glob))
      return T.getNonReferenceType().getCanonicalType().getTypePtr() == R;
  return false;
}

/// The values that ride along with a site: captures in scope at `At`, then
/// the spec's `args`.
struct RideAlong {
  Code Values; ///< `, a, b` (each preceded by a comma)
  std::string Names;
  bool empty() const { return Names.empty(); }
};

const ValueDecl *findLocal(PlanBuilder &B, const FunctionFacts &Fx,
                           const HostFunction &F, StringRef Name,
                           const Stmt *At, bool AtBodyStart) {
  for (const ParmVarDecl *PV : F.FD->parameters())
    if (PV->getName() == Name)
      return PV;
  for (const auto &[D, DS] : Fx.DeclStmtOf) {
    auto *VD = dyn_cast<ValueDecl>(D);
    if (VD && VD->getDeclName().isIdentifier() && VD->getName() == Name &&
        B.inScopeAt(Fx, VD, At, AtBodyStart))
      return VD;
  }
  return nullptr;
}

RideAlong rideAlong(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                    const HostFunction &F, const Stmt *At, bool AtBodyStart,
                    SourceLocation NoteAt) {
  RideAlong R;
  for (const Item &C : Pr.Q.Captures) {
    const ValueDecl *Local = findLocal(B, Fx, F, C.Name, At, AtBodyStart);
    if (Local)
      B.noteValueType(Local->getType());
    if (!Local) {
      B.note(NoteAt, SourceNote::Warning,
             "capture '" + C.Name + "' of probe '" + Pr.At +
                 "' is not in scope here; recorded without it",
             "sonde-capture");
      continue;
    }
    R.Values += ", " + C.Name;
    R.Names += (R.Names.empty() ? "" : ",") + (C.As.empty() ? C.Name : C.As);
  }
  for (const SpecArg &A : Pr.Args) {
    R.Values += ", (";
    R.Values.spec(A.Expr, A.ExprLoc);
    R.Values += ")";
    R.Names += (R.Names.empty() ? "" : ",") + A.Name;
  }
  return R;
}

/// `if (G) Stmt` or `Stmt`.
Code guarded(const Code &G, const Code &St) {
  if (G.empty())
    return St;
  Code C("if (");
  C += G;
  C += ") ";
  C += St;
  return C;
}

/// A region object named `Var` for site `R`.
Code regionDecl(const Probe &Pr, const SiteRef &R, const Code &G,
                const RideAlong &A, StringRef Var) {
  bool Instant = Pr.Mode == ModeKind::Instant;
  Code C;
  if (G.empty() && !Instant) {
    C += "::sonde::Region " + Var.str() + "(" + R.Var;
    C += A.Values;
    C += ");";
  } else if (G.empty() && Instant && A.empty()) {
    C += "::sonde::InstantRegion " + Var.str() + "(" + R.Var + ");";
  } else {
    C += "::sonde::CondRegion " + Var.str() + "(";
    if (G.empty())
      C += "true";
    else
      C += G;
    C += ", " + R.Var;
    C += A.Values;
    C += ");";
  }
  return C;
}

/// A point in time: an instant, with its ride-alongs.
Code instantStmt(const SiteRef &R, const Code &G, const RideAlong &A) {
  Code C;
  if (A.empty()) {
    C += "::sonde::instant(" + R.Var + ");";
  } else {
    C += "::sonde::instantArgs(" + R.Var;
    C += A.Values;
    C += ");";
  }
  return guarded(G, C);
}

/// A watch of `Value` as an expression of type void.
Code watchExpr(const SiteRef &R, StringRef Value, const RideAlong &A) {
  Code C;
  if (A.empty()) {
    C += "::sonde::watchAny(" + R.Var + ", " + Value.str() + ")";
  } else {
    C += "::sonde::watchArgs(" + R.Var + ", " + Value.str();
    C += A.Values;
    C += ")";
  }
  return C;
}

Code watchStmt(const SiteRef &R, const Code &G, StringRef Value,
               const RideAlong &A) {
  Code C = watchExpr(R, Value, A);
  C += ";";
  return guarded(G, C);
}

/// A watch usable where an expression is expected.
Code watchAsExpr(const SiteRef &R, const Code &G, StringRef Value,
                 const RideAlong &A) {
  if (G.empty())
    return watchExpr(R, Value, A);
  Code C("((");
  C += G;
  C += ") ? ";
  C += watchExpr(R, Value, A);
  C += " : void())";
  return C;
}

std::string unqualified(const FunctionDecl *FD) {
  return FD->getNameAsString();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

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

bool permittedCopy(const CXXRecordDecl *RD);
bool mentionsBinding(const Stmt *St);
bool hasTemporary(const Stmt *St);

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
                   llvm::StringRef Fn, Code Args) {
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

/// Whether `St` is `Scope` or inside it.
bool inside(const PlanBuilder &B, const FunctionFacts &Fx, const Stmt *St,
            const Stmt *Scope) {
  for (const Stmt *Cur = St; Cur; Cur = B.parent(Fx, Cur))
    if (Cur == Scope)
      return true;
  return false;
}

/// The switch that `case` or `default` `SC` belongs to.
const Stmt *switchOf(const PlanBuilder &B, const FunctionFacts &Fx,
                     const SwitchCase *SC) {
  const Stmt *Sw = B.parent(Fx, SC);
  while (Sw && !isa<SwitchStmt>(Sw))
    Sw = B.parent(Fx, Sw);
  return Sw;
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
      Code Args = On.empty() ? Code("true") : On;
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
      if (G.empty())
        Iter += "true";
      else
        Iter += G;
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
      Start += Watch ? watchStmt(R, G, Index, A) : instantStmt(R, G, A);
    }
    B.atBlockStart(Fx, Body, rank::BodyStart + int(StartOrder::Watch), Start,
                   Pr.Index);
    if (!End)
      return;
    Code Point = Watch ? watchStmt(R, G, Index, A) : instantStmt(R, G, A);
    B.atBlockEnd(Fx, Body, Point, Pr.Index);
    for (const Stmt *C : continuesOf(B, Fx, L))
      if (!B.beforeStatement(Fx, C, Point, Pr.Index))
        B.skipped(C->getBeginLoc(), Pr, "'continue' is a macro expansion",
                  "sonde-macro");
  }
};

//===----------------------------------------------------------------------===//
// The function body as a region
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// #enter, #exit, #error
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// #value
//===----------------------------------------------------------------------===//

/// Whether a guard (context frames, `when`, `every`) makes `Pr` conditional.
bool isGuarded(const Probe &Pr) {
  return !Pr.Q.Context.empty() || !Pr.When.empty() || Pr.Every > 1;
}

/// Whether a class object can be returned from `passValue` (a by-value
/// parameter returned): a copy or move constructor that is not deleted and
/// is public, declared or still to be declared implicitly.
bool movableClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    unsigned Quals = 0;
    bool Usable = C->isMoveConstructor() ||
                  (C->isCopyConstructor(Quals) && (Quals & Qualifiers::Const));
    if (Usable && !C->isDeleted() &&
        (C->getAccess() == AS_public || C->getAccess() == AS_none))
      return true;
  }
  if (RD->needsImplicitMoveConstructor() &&
      !RD->defaultedMoveConstructorIsDeleted())
    return true;
  return RD->needsImplicitCopyConstructor() &&
         !RD->defaultedCopyConstructorIsDeleted() &&
         RD->implicitCopyConstructorHasConstParam();
}

/// Whether the language may copy a `RD` object it returns or passes
/// ([class.temporary]/3): trivially copyable with a trivial destructor, so
/// one more copy is one that could have been made anyway, with no effect.
bool permittedCopy(const CXXRecordDecl *RD) {
  return RD && RD->hasDefinition() && RD->isTriviallyCopyable() &&
         RD->hasTrivialDestructor();
}

/// Why `#value` cannot pass returned expression `E` (`Bare` without its
/// implicit nodes) of a function returning `RT` through a watch, or "".
std::string whyNotPassable(const PlanBuilder &B, const Probe &Pr,
                           const RideAlong &A, QualType RT, const Expr *E,
                           const Expr *Bare, StringRef &Flag) {
  Flag = "sonde-unsupported";
  if (!A.empty())
    return "'#value' with captures needs 'return x;' of a local";
  auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
  bool Braced = Construct && Construct->isListInitialization() &&
                !isa<CXXTemporaryObjectExpr>(Construct);
  if (Braced || isa<InitListExpr>(Bare) ||
      isa<CXXStdInitializerListExpr>(Bare) ||
      E->containsUnexpandedParameterPack() || E->getType()->isDependentType() ||
      RT->isDependentType() || RT->isUndeducedType())
    return "the returned expression's type is not known here";
  if (RT->isReferenceType()) {
    // passRef binds a reference: a bit-field cannot be bound.
    if (E->refersToBitField())
      return "the returned reference is a bit-field";
    return "";
  }
  // The wrappers take the expression as written: an implicit conversion
  // happens after them, on what they return.
  const Expr *Written = E->IgnoreUnlessSpelledInSource();
  if (RT->isScalarType()) {
    // passValue would take the written expression by value: a class object
    // converted to the scalar would be copied first.
    if (Written->getType()->isRecordType()) {
      Flag = "sonde-copy";
      return "the returned value is converted from a class object, which a "
             "watch would copy";
    }
    return "";
  }
  bool SameType = B.Ctx.hasSameUnqualifiedType(E->getType(), RT) &&
                  B.Ctx.hasSameUnqualifiedType(Written->getType(), RT);
  if (!movableClass(RT->getAsCXXRecordDecl()))
    return "the returned object cannot pass through a watch unchanged (it "
           "cannot be copied or moved)";
  if (!SameType) {
    // The wrapper would take (and copy) the object before its conversion.
    Flag = "sonde-copy";
    return "the returned value is converted to '" +
           RT.getUnqualifiedType().getAsString() +
           "' from another type, which a watch would copy";
  }
  // A glvalue passes through passRef: the return object is then made from
  // the same object by the same constructor as before.
  if (Written->isGLValue())
    return "";
  // A prvalue is made in place (guaranteed copy elision): passValue would
  // copy or move it, which the program never did. Only a class the
  // language may copy when it returns it (trivially copyable, trivial
  // destructor: [class.temporary]/3) passes.
  Flag = "sonde-copy";
  if (!permittedCopy(RT->getAsCXXRecordDecl()))
    return "the returned '" + RT.getUnqualifiedType().getAsString() +
           "' is made in place (guaranteed copy elision) and a watch would "
           "copy or move it; return a local by name to watch it";
  return "";
}

class ReturnValueKind : public SelectorKind {
public:
  const char *name() const override { return "return-value"; }
  bool handles(const Probe &P) const override {
    if (!isClassic(P))
      return false;
    return P.Q.Focus == FocusKind::Item &&
           P.Q.FocusItem.Meta == MetaKind::Value;
  }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    QualType RT = F.FD->getReturnType();
    if (RT->isVoidType())
      return;
    const Item &I = Pr.Q.FocusItem;
    std::string Name = !I.As.empty() ? I.As : eventName(Pr, "value");
    for (const Stmt *St : Fx.Preorder) {
      auto *RS = dyn_cast<ReturnStmt>(St);
      if (!RS || !RS->getRetValue())
        continue;
      if (!B.editable(RS)) {
        B.skipped(RS->getBeginLoc(), Pr, "return is a macro expansion",
                  "sonde-macro");
        continue;
      }
      const Expr *E = RS->getRetValue();
      // `return Local;` of a class is a (elided) construction from the
      // local: look through it.
      const Expr *Bare = E->IgnoreImplicit()->IgnoreParens();
      if (auto *CE = dyn_cast<CXXConstructExpr>(Bare))
        if (CE->getNumArgs() == 1 && !CE->isListInitialization() &&
            !isa<CXXTemporaryObjectExpr>(CE))
          Bare = CE->getArg(0)->IgnoreImplicit()->IgnoreParens();
      auto *DRE = dyn_cast<DeclRefExpr>(Bare);
      // A local returned by name is watched before `return x;`. A reference
      // to a class returned by value too: in C++20 `return r;` of an rvalue
      // reference moves, which passing it through passRef would turn into
      // a copy.
      bool Local =
          DRE && isa<VarDecl>(DRE->getDecl()) &&
          cast<VarDecl>(DRE->getDecl())->isLocalVarDeclOrParm() &&
          (!DRE->getDecl()->getType()->isReferenceType() || RT->isRecordType());
      RideAlong A = rideAlong(B, Fx, Pr, F, RS, false, RS->getBeginLoc());
      // Every reason to skip is decided before the site exists (a skipped
      // site would be an unused variable, an error under -Werror).
      StringRef Flag;
      std::string Why = Local && !RT->isReferenceType()
                            ? std::string()
                            : whyNotPassable(B, Pr, A, RT, E, Bare, Flag);
      if (!Why.empty()) {
        B.skipped(RS->getBeginLoc(), Pr, Why, Flag);
        continue;
      }
      SiteRef R = B.addSite(Pr, F, "watch", Name, "return", RS->getBeginLoc(),
                            "#value", RT.getAsString(), A.Names);
      B.noteValueType(RT);
      Code G = B.guard(Pr, F, R);
      if (Local && !RT->isReferenceType()) {
        // Watching the local before `return x;` keeps NRVO.
        B.beforeStatement(Fx, RS, watchStmt(R, G, DRE->getDecl()->getName(), A),
                          Pr.Index);
        continue;
      }
      // A reference, or a class glvalue a constructor copies or moves from:
      // the same object passes through.
      bool SameObject = RT->isReferenceType() ||
                        (RT->isRecordType() &&
                         E->IgnoreUnlessSpelledInSource()->isGLValue());
      std::string Pass = SameObject ? "::sonde::passRef" : "::sonde::passValue";
      if (G.empty()) {
        B.wrapExpr(E, Pass + "(" + R.Var + ", ", ")", Pr.Index);
        continue;
      }
      Code Open(Pass + "If(");
      Open += G;
      Open += ", " + R.Var + ", ";
      B.wrapExpr(E, Open, ")", Pr.Index);
    }
  }
};

//===----------------------------------------------------------------------===//
// Variables and their writes
//===----------------------------------------------------------------------===//

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
      SiteRef R = site(B, Pr, F, PV, PV->getLocation(), F.Body, true, Fx);
      Code T(" ");
      T += watchStmt(R, B.guard(Pr, F, R), PV->getName(),
                     rideAlong(B, Fx, Pr, F, F.Body, true, PV->getLocation()));
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

  SiteRef site(PlanBuilder &B, const Probe &Pr, const HostFunction &F,
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
    return B.addSite(Pr, F, "watch", Recorded, "var:" + Name, At, Name,
                     V->getType().getAsString(PP), A.Names);
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
      SiteRef R = site(B, Pr, F, V, Loc, AtStmt, false, Fx);
      RideAlong A = rideAlong(B, Fx, Pr, F, AtStmt, false, Loc);
      return std::make_pair(R,
                            watchStmt(R, B.guard(Pr, F, R), V->getName(), A));
    };
    if (B.isStatementPosition(Fx, DS)) {
      if (Static) {
        // A static local is initialized once: record that once; a
        // thread_local one once per thread, as it is initialized.
        SiteRef R = site(B, Pr, F, V, Loc, DS, false, Fx);
        RideAlong A = rideAlong(B, Fx, Pr, F, DS, false, Loc);
        bool PerThread = cast<VarDecl>(V)->getTLSKind() != VarDecl::TLS_None;
        Code T(std::string(PerThread ? "thread_local" : "static") +
               " const bool sonde_once_" + R.Tag + " = (");
        T += watchAsExpr(R, B.guard(Pr, F, R), V->getName(), A);
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
      SiteRef R = site(B, Pr, F, V, Loc, N, false, Fx);
      RideAlong A = rideAlong(B, Fx, Pr, F, N, false, Loc);
      B.afterStatement(Fx, N, watchStmt(R, B.guard(Pr, F, R), V->getName(), A),
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
      SiteRef R = site(B, Pr, F, V, Loc, N, false, Fx);
      RideAlong A = rideAlong(B, Fx, Pr, F, N, false, Loc);
      Code T(", ");
      T += watchAsExpr(R, B.guard(Pr, F, R), V->getName(), A);
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
    SiteRef R = site(B, Pr, F, V, Loc, N, false, Fx);
    B.wrapExpr(E,
               (Scalar ? "::sonde::passValue(" : "::sonde::passRef(") + R.Var +
                   ", ",
               ")", Pr.Index);
  }
};

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// The callee's qualified name (`(dependent)::name` inside templates, where
/// only the name is known) and its short name.
bool calleeName(const CallExpr *CE, std::string &Qualified,
                std::string &Short) {
  if (const FunctionDecl *FD = CE->getDirectCallee()) {
    Qualified = FD->getQualifiedNameAsString();
    Short = FD->getNameAsString();
    return true;
  }
  // Calls through templates: the callee is known by name only.
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee))
    Short = UL->getName().getAsString();
  else if (auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    Short = DM->getMember().getAsString();
  else if (auto *UM = dyn_cast<UnresolvedMemberExpr>(Callee))
    Short = UM->getMemberName().getAsString();
  else
    return false;
  Qualified = "(dependent)::" + Short;
  return true;
}

/// The callee's name as the call spells it (`torch::relu` for a call
/// written so, though the function is `at::relu`), or "".
std::string writtenName(const PlanBuilder &B, const CallExpr *CE,
                        StringRef Short) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  NestedNameSpecifierLoc Q;
  if (auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    Q = DRE->getQualifierLoc();
  else if (auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee))
    Q = UL->getQualifierLoc();
  if (!Q)
    return "";
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Q.getSourceRange()), B.SM, B.LO);
  std::string Out;
  for (char C : Text)
    if (!isSpace(C))
      Out += C;
  StringRef O(Out);
  O.consume_front("::");
  return O.str() + Short.str();
}

bool mentionsBinding(const Stmt *St) {
  if (auto *DRE = dyn_cast<DeclRefExpr>(St))
    if (isa<BindingDecl>(DRE->getDecl()))
      return true;
  if (isa<PredefinedExpr>(St))
    return true;
  for (const Stmt *C : St->children())
    if (C && mentionsBinding(C))
      return true;
  return false;
}

bool hasTemporary(const Stmt *St) {
  if (isa<MaterializeTemporaryExpr>(St))
    return true;
  for (const Stmt *C : St->children())
    if (C && hasTemporary(C))
      return true;
  return false;
}

/// Whether expression `E` initializes a const integral variable or sits in
/// a braced initializer, with only expressions in between.
bool constantPlace(const PlanBuilder &B, const FunctionFacts &Fx,
                   const Expr *E) {
  for (const Stmt *Cur = E, *Par = B.parent(Fx, E); Par;
       Cur = Par, Par = B.parent(Fx, Par)) {
    if (isa<InitListExpr>(Par))
      return true;
    if (auto *C = dyn_cast<CXXConstructExpr>(Par))
      if (C->isListInitialization())
        return true;
    if (auto *DS = dyn_cast<DeclStmt>(Par)) {
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() == Cur) {
            QualType T = V->getType();
            return T.isConstQualified() && !T.isVolatileQualified() &&
                   (T->isIntegralOrEnumerationType() || T->isDependentType());
          }
      return false;
    }
    if (!isa<Expr>(Par))
      return false;
  }
  return false;
}

/// Whether wrapping constexpr call `CE` could change what compiles: its
/// value initializes a const integral variable (usable in constant
/// expressions: `const int n = sq(3); std::array<int, n> a;`) or sits in a
/// braced initializer (where a constant that fits is not narrowing).
bool constantUse(const PlanBuilder &B, const FunctionFacts &Fx,
                 const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (FD && !FD->isConstexpr())
    return false;
  if (!FD && !CE->isValueDependent())
    return false;
  // The place first: a short walk up that most calls fail, where evaluating
  // the call is the costly test.
  if (!constantPlace(B, Fx, CE))
    return false;
  // Only a call that is a constant expression here (a lambda's operator()
  // is constexpr too, but `[&] { return n * 2; }()` is not constant);
  // inside a template, where that is not known, be careful.
  return CE->isValueDependent() || CE->isCXX11ConstantExpr(B.Ctx);
}

/// Calls `Visit(CE, Qualified, Short)` for each call in the host function
/// that the probe's callee glob selects and that can be instrumented; the
/// others get a note. With `Written`, a qualified glob may also match the
/// callee's name as written at the call (`torch::*` selects
/// `torch::relu(x)`, whose function is `at::relu`).
template <class VisitFn>
void forEachCall(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                 bool Written, VisitFn Visit) {
  const Item &I = Pr.Q.FocusItem;
  for (const Stmt *St : Fx.Preorder) {
    auto *CE = dyn_cast<CallExpr>(St);
    if (!CE || isa<CUDAKernelCallExpr>(CE) || isa<UserDefinedLiteral>(CE))
      continue;
    std::string Callee, Short;
    if (!calleeName(CE, Callee, Short))
      continue;
    if (!I.Callee.matches(Callee) &&
        !(Written && StringRef(I.Callee.Glob).contains("::") &&
          globMatch(I.Callee.Glob, writtenName(B, CE, Short))) &&
        !I.Callee.matches(torchHolderName(CE->getDirectCallee())))
      continue;
    // `p->f()` calls `operator->` without writing it.
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      if (OC->getOperator() == OO_Arrow)
        continue;
    // Conversion functions are called implicitly (`if (box)`); there is
    // no call written to wrap.
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
        continue;
    if (CE->containsUnexpandedParameterPack()) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' is inside a pack expansion",
                "sonde-unsupported");
      continue;
    }
    if (unevaluated(B, Fx, CE))
      continue;
    if (!B.editable(CE)) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' is a macro expansion", "sonde-macro");
      continue;
    }
    if (constantUse(B, Fx, CE)) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of constexpr '" + Short +
                    "' initializes a constant or a braced initializer "
                    "(wrapped, it would no longer be a constant expression)",
                "sonde-constexpr");
      continue;
    }
    Visit(CE, Callee, Short);
  }
}

/// Whether a value of type `T` can hold an address: a pointer, a
/// reference, or a class or array with one inside (a class that is not
/// defined yet is taken to).
bool holdsPointer(QualType T) {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return true;
  if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    return holdsPointer(AT->getElementType());
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (!RD->hasDefinition())
    return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (holdsPointer(Base.getType()))
      return true;
  for (const FieldDecl *FD : RD->fields())
    if (holdsPointer(FD->getType()))
      return true;
  return false;
}

/// Why wrapping call `CE` in a lambda would change its meaning, or "".
std::string whyNotWrappable(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  bool RefResult = FD ? FD->getReturnType()->isReferenceType()
                      : CE->getType()->isDependentType();
  bool QualifiedThisCall = false;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      QualifiedThisCall = ME->isImplicitAccess() && ME->hasQualifier();
  if (CE->containsUnexpandedParameterPack())
    return "its arguments expand a parameter pack";
  if (mentionsBinding(CE))
    return "it names a structured binding or __func__";
  // The lambda ends the temporaries of the arguments with its return
  // statement, not with the original full-expression: a result that may
  // point into one (a reference, a pointer, a trivially copyable class that
  // holds one, such as a string_view or an iterator) would dangle. A class
  // with its own copy or destructor (a string, a tensor) is taken to own
  // what it holds.
  QualType Result = FD ? FD->getReturnType() : CE->getType();
  bool MayPointIn =
      RefResult || Result->isPointerType() || Result->isMemberPointerType() ||
      (Result->isRecordType() && permittedCopy(Result->getAsCXXRecordDecl()) &&
       holdsPointer(Result));
  if (MayPointIn && hasTemporary(CE))
    return RefResult ? "it returns a reference and has a temporary argument"
                     : "it has a temporary argument and its result ('" +
                           Result.getUnqualifiedType().getAsString() +
                           "') may point into it";
  if (QualifiedThisCall)
    return "it is a qualified call of a member of this class";
  return "";
}

//===----------------------------------------------------------------------===//
// Call sites F()
//===----------------------------------------------------------------------===//

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
      std::string Why = whyNotWrappable(CE);
      if (Why.empty() && !A.empty())
        Why = "captures and args need the call as a statement of its own";
      if (!Why.empty()) {
        B.skipped(CE->getBeginLoc(), Pr,
                  "call of '" + Short +
                      "' inside an expression cannot be wrapped safely: " + Why,
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
        Open += "::sonde::Region(" + R.Var;
        Open += A.Values;
      } else {
        Open += "::sonde::CondRegion(";
        if (G.empty())
          Open += "true";
        else
          Open += G;
        Open += ", " + R.Var;
        Open += A.Values;
      }
      Open += "), ";
      B.wrapExpr(CE, Open, ")", Pr.Index);
      return;
    }
    Code Open("::sonde::call(");
    if (G.empty())
      Open += "true";
    else
      Open += G;
    Open += ", " + R.Var + ", [&]() -> decltype(auto) { return ";
    B.wrapExprInLambda(CE, Open, "; })", Pr.Index);
  }
};

//===----------------------------------------------------------------------===//
// Ranges !A, !!B
//===----------------------------------------------------------------------===//

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
      Code Decl = regionDecl(Pr, R, G, Ride, Var);
      if (Decl.Text.rfind("::sonde::CondRegion", 0) != 0) {
        // Only a CondRegion can close early.
        Code C("::sonde::CondRegion " + Var + "(true, " + R.Var);
        C += Ride.Values;
        C += ");";
        Decl = C;
      }
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
      Item Loops = E;
      for (const Stmt *L : selectLoops(B, Fx, Loops)) {
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

//===----------------------------------------------------------------------===//
// API calls (`apis:`)
//===----------------------------------------------------------------------===//

/// Whether argument `A` of a call of `FD` can pass through
/// `ApiCall::arg` unchanged: the same object, the same value category, so
/// the same overload, conversions and parameter initialization. Returns the
/// written expression to wrap, or null.
const Expr *passableArg(const PlanBuilder &B, const FunctionDecl *FD,
                        unsigned Index, const Expr *A) {
  if (Index >= FD->getNumParams())
    return nullptr; // C varargs
  const Expr *W = A->IgnoreUnlessSpelledInSource();
  if (!B.editable(W) || W->isTypeDependent() || W->isValueDependent() ||
      W->refersToBitField() || W->hasPlaceholderType())
    return nullptr;
  if (isa<InitListExpr>(W) || isa<CXXStdInitializerListExpr>(W) ||
      isa<CXXDefaultArgExpr>(W))
    return nullptr;
  if (auto *CE = dyn_cast<CXXConstructExpr>(W))
    if (CE->isListInitialization())
      return nullptr;
  QualType T = W->getType();
  if (T->isFunctionType() || T.isVolatileQualified() || T->isVoidType())
    return nullptr;
  // A glvalue comes out of arg() as the same glvalue.
  if (W->isGLValue())
    return W;
  // A prvalue comes out as an xvalue. For a scalar (not a null pointer
  // constant) that is the same value; for a class, only a reference
  // parameter of the same class (or a base) binds it exactly as before:
  // by value, it would cost a move.
  if (T->isScalarType())
    return W->isNullPointerConstant(B.Ctx, Expr::NPC_ValueDependentIsNotNull)
               ? nullptr
               : W;
  QualType PT = FD->getParamDecl(Index)->getType();
  if (!PT->isReferenceType())
    return nullptr;
  QualType Pointee = PT.getNonReferenceType().getUnqualifiedType();
  const CXXRecordDecl *From = T->getAsCXXRecordDecl();
  const CXXRecordDecl *To = Pointee->getAsCXXRecordDecl();
  if (!From || !To)
    return nullptr;
  if (B.Ctx.hasSameUnqualifiedType(T, Pointee) ||
      (From->hasDefinition() && From->isDerivedFrom(To)))
    return W;
  return nullptr;
}

class ApiCallKind : public SelectorKind {
public:
  const char *name() const override { return "api-call"; }
  bool handles(const Probe &P) const override { return P.Sec == Section::Apis; }
  void collect(PlanBuilder &B, const Probe &Pr,
               const HostFunction &F) const override {
    const FunctionFacts &Fx = B.facts(F);
    forEachCall(B, Fx, Pr, /*Written=*/true,
                [&](const CallExpr *CE, const std::string &Callee,
                    const std::string &Short) {
                  instrument(B, Fx, Pr, F, CE, Callee, Short);
                });
  }

private:
  void instrument(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                  const HostFunction &F, const CallExpr *CE,
                  const std::string &Callee, const std::string &Short) const {
    std::string Why = whyNotWrappable(CE);
    if (!Why.empty()) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' cannot be traced: " + Why,
                "sonde-unsupported");
      return;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    // A call that never returns has no post record, and wrapping it would
    // hide [[noreturn]] from the compiler's flow analysis.
    if (FD && FD->isNoReturn()) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' cannot be traced: it does not return",
                "sonde-unsupported");
      return;
    }
    // Member operators take the object as argument 0; their arguments are
    // not recorded (the call is).
    bool Operator = isa<CXXOperatorCallExpr>(CE);
    unsigned Total = 0;
    std::string Names;
    std::vector<const Expr *> Pass;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *A = CE->getArg(I);
      if (isa<CXXDefaultArgExpr>(A))
        break; // default arguments come last and are not written
      ++Total;
      std::string N;
      if (FD && !Operator && I < FD->getNumParams())
        N = FD->getParamDecl(I)->getNameAsString();
      if (N.empty())
        N = "arg" + std::to_string(I);
      Names += (Names.empty() ? "" : ",") + N;
      const Expr *W = nullptr;
      if (Pr.ApiArgs && FD && !Operator)
        W = passableArg(B, FD, I, A);
      Pass.push_back(W);
    }
    PrintingPolicy PP(B.LO);
    QualType RT = FD ? FD->getReturnType() : CE->getType();
    SiteRef R =
        B.addSite(Pr, F, "api", Callee, "api:" + Short, CE->getBeginLoc(),
                  Short + "()", RT.getAsString(PP), Names);
    if (FD) {
      B.noteValueType(RT);
      for (const ParmVarDecl *PV : FD->parameters())
        B.noteValueType(PV->getType());
    }
    unsigned Wrapped = 0;
    std::string Var = "sonde_api_" + R.Tag;
    for (unsigned I = 0; I < Pass.size(); ++I) {
      if (!Pass[I])
        continue;
      B.wrapExpr(Pass[I], Var + ".arg(" + std::to_string(I) + ", ", ")",
                 Pr.Index);
      ++Wrapped;
    }
    Code G = B.guard(Pr, F, R);
    Code Open("::sonde::api(");
    if (G.empty())
      Open += "true";
    else
      Open += G;
    Open += ", " + R.Var + ", " + std::to_string(Total) + ", " +
            std::to_string(Wrapped) + ", [&](::sonde::ApiCall &" +
            (Wrapped ? Var : "") + ") -> decltype(auto) { return ";
    B.wrapExprInLambda(CE, Open, "; })", Pr.Index);
  }
};

//===----------------------------------------------------------------------===//
// Model state (`state:`)
//===----------------------------------------------------------------------===//

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
    while (Par && isa<Expr>(Par)) {
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

const std::vector<std::unique_ptr<SelectorKind>> &selectorKinds() {
  static const std::vector<std::unique_ptr<SelectorKind>> Kinds = [] {
    std::vector<std::unique_ptr<SelectorKind>> K;
    K.push_back(std::make_unique<FunctionRegionKind>());
    K.push_back(std::make_unique<RangeKind>());
    K.push_back(std::make_unique<CallSiteKind>());
    K.push_back(std::make_unique<LoopKind>());
    K.push_back(std::make_unique<EntryExitKind>());
    K.push_back(std::make_unique<ReturnValueKind>());
    K.push_back(std::make_unique<VariableKind>());
    K.push_back(std::make_unique<ApiCallKind>());
    K.push_back(std::make_unique<StateKind>());
    return K;
  }();
  return Kinds;
}

} // namespace rewriter
} // namespace sonde
