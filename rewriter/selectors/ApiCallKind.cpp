//===- ApiCallKind.cpp - The api-call selector kind -----------------------===//
//
// `apis:` entries: each call of a matched function run inside
// sonde::api, which records the call, its arguments that pass through
// unchanged and its result.
//
// Covered by: test/lit/selectors/apis.cpp, torch-ops.cpp, torch-nested-api.cpp;
// test/lit/constructs/lifetime-wrappers.cpp.
//
//===----------------------------------------------------------------------===//

#include "Calls.h"
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
    if (std::optional<std::string> Why = whyNotWrappable(CE)) {
      B.skipped(CE->getBeginLoc(), Pr,
                "call of '" + Short + "' cannot be traced: " + *Why,
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
    Open += condition(G);
    Open += ", " + R.Var + ", " + std::to_string(Total) + ", " +
            std::to_string(Wrapped) + ", [&](::sonde::ApiCall &" +
            (Wrapped ? Var : "") + ") -> decltype(auto) { return ";
    B.wrapExprInLambda(CE, Open, "; })", Pr.Index);
  }
};

} // namespace

std::unique_ptr<SelectorKind> createApiCallKind() {
  return std::make_unique<ApiCallKind>();
}

} // namespace rewriter
} // namespace sonde
