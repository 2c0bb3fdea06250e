//===- ReturnValueKind.cpp - The return-value selector kind ---------------===//
//
// `#value` (in `watches:`): each returned value, watched before `return x;`
// of a local (which keeps NRVO) or passed through passRef/passValue, only
// where the same object or value comes out.
//
// Covered by: test/lit/selectors/return-value.cpp;
// test/lit/constructs/nocopy-value.cpp, decltype-auto.cpp,
// lifetime-wrappers.cpp, attributes.cpp, templates20.cpp.
//
//===----------------------------------------------------------------------===//

#include "ASTHelpers.h"
#include "Emit.h"
#include "SelectorKinds.h"

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <optional>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

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

/// Why a site is not made, and the flag of the note that says so.
struct Refusal {
  std::string Why;
  StringRef Flag;
};

Refusal unsupported(std::string Why) {
  return {std::move(Why), "sonde-unsupported"};
}
Refusal copies(std::string Why) { return {std::move(Why), "sonde-copy"}; }

/// Why `#value` cannot pass returned expression `E` (`Bare` without its
/// implicit nodes) of a function returning `RT` through a watch; none if it
/// can.
std::optional<Refusal> whyNotPassable(const PlanBuilder &B, const Probe &Pr,
                                      const RideAlong &A, QualType RT,
                                      const Expr *E, const Expr *Bare) {
  if (!A.empty())
    return unsupported("'#value' with captures needs 'return x;' of a local");
  auto *Construct = dyn_cast<CXXConstructExpr>(Bare);
  bool Braced = Construct && Construct->isListInitialization() &&
                !isa<CXXTemporaryObjectExpr>(Construct);
  if (Braced || isa<InitListExpr>(Bare) ||
      isa<CXXStdInitializerListExpr>(Bare) ||
      E->containsUnexpandedParameterPack() || E->getType()->isDependentType() ||
      RT->isDependentType() || RT->isUndeducedType())
    return unsupported("the returned expression's type is not known here");
  if (RT->isReferenceType()) {
    // passRef binds a reference: a bit-field cannot be bound.
    if (E->refersToBitField())
      return unsupported("the returned reference is a bit-field");
    return std::nullopt;
  }
  // The wrappers take the expression as written: an implicit conversion
  // happens after them, on what they return.
  const Expr *Written = E->IgnoreUnlessSpelledInSource();
  if (RT->isScalarType()) {
    // passValue would take the written expression by value: a class object
    // converted to the scalar would be copied first.
    if (Written->getType()->isRecordType()) {
      return copies(
          "the returned value is converted from a class object, which a "
          "watch would copy");
    }
    return std::nullopt;
  }
  bool SameType = B.Ctx.hasSameUnqualifiedType(E->getType(), RT) &&
                  B.Ctx.hasSameUnqualifiedType(Written->getType(), RT);
  if (!movableClass(RT->getAsCXXRecordDecl()))
    return unsupported(
        "the returned object cannot pass through a watch unchanged (it "
        "cannot be copied or moved)");
  if (!SameType) {
    // The wrapper would take (and copy) the object before its conversion.
    return copies("the returned value is converted to '" +
                  RT.getUnqualifiedType().getAsString() +
                  "' from another type, which a watch would copy");
  }
  // A glvalue passes through passRef: the return object is then made from
  // the same object by the same constructor as before.
  if (Written->isGLValue())
    return std::nullopt;
  // A prvalue is made in place (guaranteed copy elision): passValue would
  // copy or move it, which the program never did. Only a class the
  // language may copy when it returns it (trivially copyable, trivial
  // destructor: [class.temporary]/3) passes.
  if (!permittedCopy(RT->getAsCXXRecordDecl()))
    return copies(
        "the returned '" + RT.getUnqualifiedType().getAsString() +
        "' is made in place (guaranteed copy elision) and a watch would "
        "copy or move it; return a local by name to watch it");
  return std::nullopt;
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
      std::optional<Refusal> No;
      if (!Local || RT->isReferenceType())
        No = whyNotPassable(B, Pr, A, RT, E, Bare);
      if (No) {
        B.skipped(RS->getBeginLoc(), Pr, No->Why, No->Flag);
        continue;
      }
      SiteRef R = B.addSite(Pr, F, "watch", Name, "return", RS->getBeginLoc(),
                            "#value", RT.getAsString(), A.Names);
      B.noteValueType(RT);
      Code G = B.guard(Pr, F, R);
      if (Local && !RT->isReferenceType()) {
        // Watching the local before `return x;` keeps NRVO.
        B.beforeStatement(Fx, RS,
                          watchStmt(R, G, DRE->getDecl()->getName(),
                                    watchWriterFor(DRE->getType()), A),
                          Pr.Index);
        continue;
      }
      // A reference, or a class glvalue a constructor copies or moves from:
      // the same object passes through.
      bool SameObject =
          RT->isReferenceType() ||
          (RT->isRecordType() && E->IgnoreUnlessSpelledInSource()->isGLValue());
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

} // namespace

std::unique_ptr<SelectorKind> createReturnValueKind() {
  return std::make_unique<ReturnValueKind>();
}

} // namespace rewriter
} // namespace sonde
