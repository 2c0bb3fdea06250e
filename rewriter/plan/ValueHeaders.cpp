//===- ValueHeaders.cpp - Runtime headers for recorded values -------------===//
//
// A recorded value's sonde::ValueTraits come from sonde/sonde.h for scalars
// and strings, sonde/containers.h for std::vector and std::array of numbers,
// sonde/torch.h for tensors: PlanBuilder::noteValueType looks at the type and
// asks for the header (Plan::RuntimeHeaders), which front doors pass as an
// `-include`.
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

/// Whether `T` is a tensor, or a template of one (`std::vector<Tensor>`).
static bool involvesTensor(QualType T, int Depth = 0) {
  if (T.isNull() || Depth > 4)
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  while (const Type *P = T->getPointeeOrArrayElementType())
    if (P == T.getTypePtr())
      break;
    else
      T = QualType(P, 0).getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  if (Name == "at::Tensor" || Name == "at::TensorBase")
    return true;
  if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type &&
          involvesTensor(A.getAsType(), Depth + 1))
        return true;
  return false;
}

/// Whether `T` is a std::vector or std::array of numbers.
static bool isNumberContainer(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() ||
      (Spec->getName() != "vector" && Spec->getName() != "array"))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type &&
         Args[0].getAsType()->isArithmeticType();
}

/// Whether the translation unit declares at::Tensor (includes libtorch).
static bool declaresTensor(ASTContext &Ctx) {
  // By name lookup: walking the translation unit's declarations would load
  // every one that a PCH holds.
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("at")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      for (const NamedDecl *Inner : NS->lookup(&Ctx.Idents.get("Tensor")))
        if (isa<CXXRecordDecl>(Inner))
          return true;
  return false;
}

void PlanBuilder::noteValueType(QualType T) {
  // A dependent type is one text for every instantiation: any of them may be
  // a tensor or a container, whose ValueTraits come from these headers
  // (without them the value would silently record nothing).
  if (!T.isNull() && T->isDependentType()) {
    needHeader(declaresTensor(Ctx) ? "sonde/torch.h" : "sonde/containers.h");
    return;
  }
  if (involvesTensor(T))
    needHeader("sonde/torch.h");
  else if (isNumberContainer(T))
    needHeader("sonde/containers.h");
}

} // namespace rewriter
} // namespace sonde
