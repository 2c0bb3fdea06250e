//===- TorchHolder.cpp - Names through TORCH_MODULE holders ---------------===//
//
// `TORCH_MODULE(Net)` declares `Net`, a torch::nn::ModuleHolder of
// `NetImpl`: users call `Net::forward`, the code defines `NetImpl::forward`.
// A selector may name either; torchHolderName gives the second name
// (HostFunction::HolderName) when both classes really are what the names
// say.
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

/// Whether `RD` derives from `torch::nn::Module` (directly, or through
/// `torch::nn::Cloneable<RD>`).
bool isTorchModule(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 16)
    return false;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases()) {
    const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl();
    if (!B)
      continue;
    if (B->getQualifiedNameAsString() == "torch::nn::Module" ||
        isTorchModule(B, Depth + 1))
      return true;
  }
  return false;
}

/// Whether `T` is `torch::nn::ModuleHolder<Impl>`, or a class deriving from
/// it (what `TORCH_MODULE` declares).
bool isHolderOf(QualType T, const CXXRecordDecl *Impl, unsigned Depth = 0) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || Depth > 16)
    return false;
  if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getQualifiedNameAsString() == "torch::nn::ModuleHolder" &&
        Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *Arg =
          Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      return Arg && Arg->getCanonicalDecl() == Impl->getCanonicalDecl();
    }
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases())
    if (isHolderOf(Base.getType(), Impl, Depth + 1))
      return true;
  return false;
}

/// `Net::forward` for `NetImpl::forward` when `NetImpl` is a libtorch module
/// and `Net`, declared beside it, is its `torch::nn::ModuleHolder` (what
/// `TORCH_MODULE(Net)` declares). Both are checked, not only the names:
/// a class that happens to end in `Impl` gets no second name.
std::string holderNameOf(const FunctionDecl *FD) {
  auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M)
    return "";
  const CXXRecordDecl *Impl = M->getParent();
  StringRef Name = Impl->getName();
  if (!Name.ends_with("Impl") || Name.size() == 4 || !isTorchModule(Impl))
    return "";
  StringRef Holder = Name.drop_back(4);
  ASTContext &Ctx = FD->getASTContext();
  const DeclContext *DC = Impl->getDeclContext()->getRedeclContext();
  for (const NamedDecl *ND : DC->lookup(&Ctx.Idents.get(Holder))) {
    QualType T;
    if (auto *RD = dyn_cast<CXXRecordDecl>(ND))
      T = Ctx.getRecordType(RD);
    else if (auto *TD = dyn_cast<TypedefNameDecl>(ND))
      T = TD->getUnderlyingType();
    if (!isHolderOf(T, Impl))
      continue;
    std::string Qualified = FD->getQualifiedNameAsString();
    std::string Class = Impl->getQualifiedNameAsString();
    if (!StringRef(Qualified).starts_with(Class))
      return "";
    return cast<NamedDecl>(ND)->getQualifiedNameAsString() +
           Qualified.substr(Class.size());
  }
  return "";
}

} // namespace

std::string torchHolderName(const FunctionDecl *FD) {
  return FD ? holderNameOf(FD) : "";
}

} // namespace rewriter
} // namespace sonde
