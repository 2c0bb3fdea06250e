//===- ASTHelpers.cpp - AST questions the selector kinds ask --------------===//
//
// See ASTHelpers.h.
//
//===----------------------------------------------------------------------===//

#include "ASTHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

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

namespace {

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

} // namespace

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

/// Whether the language may copy a `RD` object it returns or passes
/// ([class.temporary]/3): trivially copyable with a trivial destructor, so
/// one more copy is one that could have been made anyway, with no effect.
bool permittedCopy(const CXXRecordDecl *RD) {
  return RD && RD->hasDefinition() && RD->isTriviallyCopyable() &&
         RD->hasTrivialDestructor();
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

} // namespace rewriter
} // namespace sonde
