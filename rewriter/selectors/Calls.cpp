//===- Calls.cpp - Finding the calls a selector names ---------------------===//
//
// See Calls.h.
//
//===----------------------------------------------------------------------===//

#include "Calls.h"

#include "ASTHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

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

} // namespace

/// Calls `Visit(CE, Qualified, Short)` for each call in the host function
/// that the probe's callee glob selects and that can be instrumented; the
/// others get a note. With `Written`, a qualified glob may also match the
/// callee's name as written at the call (`torch::*` selects
/// `torch::relu(x)`, whose function is `at::relu`).
void forEachCall(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                 bool Written, CallVisitor Visit) {
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

/// Why wrapping call `CE` in a lambda would change its meaning; none if it
/// would not.
std::optional<std::string> whyNotWrappable(const CallExpr *CE) {
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
  return std::nullopt;
}

} // namespace rewriter
} // namespace sonde
