//===- ComputePlan.cpp - The plan of one file -----------------------------===//
//
// computePlan, the driver: which functions of the main file host sites (its
// definitions, less those that cannot be instrumented: constexpr, allocators,
// naked, coroutines, macro bodies), which selector kind each probe is, in
// which order probes, context frames and `torch_ops:` are placed, and the
// checks on the whole (an already-instrumented copy, captures that name
// nothing, C++17).
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <set>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

/// Collects the function definitions of the main file, in order. Template
/// patterns are visited once; their instantiations are not.
///
/// Only the main file's declarations are walked: a declaration that begins
/// and ends in one #included file cannot hold main-file code, and the
/// translation unit's declarations that an AST file (a PCH, a module) holds
/// are left unloaded. Walking them all deserialized every declaration of a
/// precompiled <torch/torch.h>: about 1 s of CPU per compile with the PCH.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
  using Base = RecursiveASTVisitor<FunctionCollector>;

public:
  FunctionCollector(const SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (auto *TU = dyn_cast<TranslationUnitDecl>(D)) {
      // The main file is never in an AST file: what this parse added.
      for (Decl *Child : TU->noload_decls())
        if (!TraverseDecl(Child))
          return false;
      return true;
    }
    if (inOneHeader(D))
      return true;
    return Base::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit())
      return true;
    if (auto *M = dyn_cast<CXXMethodDecl>(FD))
      if (M->getParent()->isLambda())
        return true;
    SourceLocation L = SM.getExpansionLoc(FD->getLocation());
    if (!SM.isInMainFile(L))
      return true;
    Found.push_back(FD);
    return true;
  }
  /// Site descriptors that sonde inserted (`static ::sonde::SiteTable
  /// sonde_sites_...`, or `static ::sonde::Site sonde_site_...` from sonde
  /// before site tables): the file is an instrumented copy. Declarations,
  /// not text, so a comment that quotes one does not count.
  bool VisitVarDecl(VarDecl *VD) {
    if (SiteDescriptor.isValid() || !VD->getName().starts_with("sonde_site"))
      return true;
    const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
    if (!RD)
      return true;
    std::string Type = RD->getQualifiedNameAsString();
    if (Type != "sonde::Site" && Type != "sonde::SiteTable")
      return true;
    SourceLocation L = SM.getExpansionLoc(VD->getLocation());
    if (SM.isInMainFile(L))
      SiteDescriptor = L;
    return true;
  }
  /// Whether `D` begins and ends in one file that was #included (by
  /// expansion): its text, and so everything declared in it, is that
  /// file's. Preprocessed input (one file with line markers) is walked.
  bool inOneHeader(const Decl *D) const {
    SourceLocation B = D->getBeginLoc(), E = D->getEndLoc();
    if (B.isInvalid() || E.isInvalid())
      return false;
    FileID F = SM.getFileID(SM.getExpansionLoc(B));
    return F == SM.getFileID(SM.getExpansionLoc(E)) &&
           SM.getIncludeLoc(F).isValid();
  }

  const SourceManager &SM;
  std::vector<FunctionDecl *> Found;
  SourceLocation SiteDescriptor;
};

/// Whether `FD` replaces or overloads what every allocation goes through:
/// a namespace-scope `operator new`/`delete` (any form) or a C allocator
/// (`malloc`, `free`, ...) defined with C linkage. Class-specific
/// `operator new` is instrumented: the runtime never allocates through it.
bool isAllocator(const FunctionDecl *FD) {
  if (!FD->getDeclContext()->getRedeclContext()->isFileContext())
    return false;
  switch (FD->getOverloadedOperator()) {
  case OO_New:
  case OO_Delete:
  case OO_Array_New:
  case OO_Array_Delete:
    return true;
  default:
    break;
  }
  if (!FD->isExternC() || !FD->getDeclName().isIdentifier())
    return false;
  return StringSwitch<bool>(FD->getName())
      .Cases("malloc", "calloc", "realloc", "free", "aligned_alloc", true)
      .Cases("posix_memalign", "memalign", "valloc", "pvalloc", true)
      .Cases("reallocarray", "malloc_usable_size", true)
      .Default(false);
}

/// Whether a function can be instrumented, and if not, why.
struct Fitness {
  enum Verdict {
    Fit,    ///< instrument it
    Silent, ///< no body of its own (`= default`): nothing to say
    Unfit,  ///< skip it with a warning: Why, under flag Flag
  } V = Fit;
  std::string Why;
  std::string Flag;
};

Fitness fitness(const FunctionDecl *FD, const PlanBuilder &B) {
  // `= default` and `= delete` have no body of their own: nothing to say.
  if (FD->isDefaulted() || FD->isDeleted() || !FD->getBody())
    return {Fitness::Silent, "", ""};
  if (FD->isConsteval() || FD->isConstexpr())
    return {Fitness::Unfit,
            FD->isConsteval() ? "function is consteval"
                              : "function is constexpr",
            "sonde-constexpr"};
  // The runtime allocates while it starts and registers sites: a probe in
  // the allocator would re-enter it (a deadlock on the first record).
  if (isAllocator(FD))
    return {Fitness::Unfit, "function is a global allocation function",
            "sonde-allocator"};
  // A naked function's body may only hold asm: no prologue, no locals.
  if (FD->hasAttr<NakedAttr>())
    return {Fitness::Unfit, "function is naked", "sonde-unsupported"};
  const Stmt *Body = FD->getBody();
  if (isa<CoroutineBodyStmt>(Body))
    return {Fitness::Unfit, "function is a coroutine", "sonde-coroutine"};
  if (!isa<CompoundStmt>(Body) && !isa<CXXTryStmt>(Body))
    return {Fitness::Silent, "", ""};
  if (!B.editable(Body))
    return {Fitness::Unfit, "body is a macro expansion", "sonde-macro"};
  return {};
}

/// Whether `F` has a parameter or a local variable named `Name` anywhere in
/// its body (in scope at some site or not): what a capture can name.
bool declares(PlanBuilder &B, const HostFunction &F, StringRef Name) {
  for (const ParmVarDecl *PV : F.FD->parameters())
    if (PV->getName() == Name)
      return true;
  for (const auto &[D, DS] : B.facts(F).DeclStmtOf) {
    auto *VD = dyn_cast<ValueDecl>(D);
    if (VD && VD->getDeclName().isIdentifier() && VD->getName() == Name)
      return true;
  }
  return false;
}

/// A capture that no function `Pr` matches in this file declares is a
/// mistake in the spec (a typo, a renamed variable), not a site where it is
/// out of scope: one error at the capture in the spec, and no warning per
/// site. A name declared in some matched function stays a per-site warning
/// where it is not in scope.
void checkCaptures(PlanBuilder &B, const Spec &S, const Probe &Pr,
                   ArrayRef<const HostFunction *> Matched,
                   std::vector<SpecNote> &Errors) {
  if (Matched.empty())
    return;
  for (const Item &C : Pr.Q.Captures) {
    if (any_of(Matched,
               [&](const HostFunction *H) { return declares(B, *H, C.Name); }))
      continue;
    std::string Where;
    for (size_t I = 0; I < Matched.size() && I < 3; ++I)
      Where += (I ? ", '" : "'") + Matched[I]->QualifiedName + "'";
    if (Matched.size() > 3)
      Where += ", ...";
    Errors.push_back(
        {S.selectorLoc(Pr, C.Offset), std::max(1u, C.Length),
         "capture '" + C.Name + "' of probe '" + Pr.At +
             "' names no parameter or local variable of " +
             (Matched.size() > 1 ? "any function it matches (" + Where + ")"
                                 : Where),
         Pr.Index});
  }
}

std::string fileName(const SourceManager &SM) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!FE)
    return "<main>";
  StringRef Name = FE->getName();
  Name.consume_front("./");
  return Name.str();
}

} // namespace

Expected<Plan> computePlan(ASTContext &Ctx, const Spec &S,
                           const PlanOptions &Opts) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string File = Opts.FileName.empty() ? fileName(SM) : Opts.FileName;
  PlanBuilder B(Ctx, S, File);
  FunctionCollector Collect(SM);
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A copy that sonde already instrumented would get every site a second
  // time, under the same stable names: redefinitions, reported as a sonde
  // bug. Found when a build listed one file in two targets (fmt's os.cc).
  if (Collect.SiteDescriptor.isValid())
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is already instrumented by sonde (line %u holds its site "
        "descriptors): instrument the original source, not an instrumented "
        "copy",
        File.c_str(), SM.getExpansionLineNumber(Collect.SiteDescriptor));

  std::vector<HostFunction> Hosts;
  Hosts.reserve(Collect.Found.size());
  for (FunctionDecl *FD : Collect.Found) {
    HostFunction H;
    H.FD = FD;
    H.Body = FD->getBody();
    if (auto *Try = dyn_cast<CXXTryStmt>(H.Body))
      H.Body = Try->getTryBlock();
    H.QualifiedName = FD->getQualifiedNameAsString();
    H.HolderName = torchHolderName(FD);
    Hosts.push_back(std::move(H));
  }

  // The names an unmatched selector may have meant (Unmatched.h), holders'
  // included: they select as well.
  for (const HostFunction &H : Hosts) {
    B.P.HostNames.push_back(H.QualifiedName);
    if (!H.HolderName.empty())
      B.P.HostNames.push_back(H.HolderName);
  }
  const auto &Kinds = selectorKinds();
  std::set<std::pair<const FunctionDecl *, std::string>> FramesPlaced;
  std::vector<SpecNote> SpecErrors;
  for (const Probe &Pr : S.Probes) {
    const SelectorKind *Kind = nullptr;
    for (const auto &K : Kinds)
      if (K->handles(Pr)) {
        Kind = K.get();
        break;
      }
    if (!Kind)
      continue;
    std::vector<const HostFunction *> Matched;
    for (const HostFunction &H : Hosts) {
      if (!H.matchedBy(Pr.Q.Host) || !Pr.Q.Host.matchesFile(File) ||
          !S.inScope(File, H.QualifiedName))
        continue;
      Fitness Fit = fitness(H.FD, B);
      if (Fit.V == Fitness::Silent)
        continue;
      if (Fit.V == Fitness::Unfit) {
        B.skipped(H.FD->getLocation(), Pr,
                  "'" + H.QualifiedName + "': " + Fit.Why, Fit.Flag);
        continue;
      }
      Kind->collect(B, Pr, H);
      Matched.push_back(&H);
    }
    checkCaptures(B, S, Pr, Matched, SpecErrors);
    // Context frames: every function that a context glob matches marks
    // itself active on the thread while it runs.
    for (const FuncGlob &G : Pr.Q.Context) {
      for (const HostFunction &H : Hosts) {
        if (!H.matchedBy(G) || !G.matchesFile(File) ||
            !S.inScope(File, H.QualifiedName))
          continue;
        if (!FramesPlaced.insert({H.FD, G.FileGlob + "/" + G.Glob}).second)
          continue;
        if (fitness(H.FD, B).V != Fitness::Fit)
          continue;
        std::string Var = B.frameVar(G);
        B.atBodyStart(H, StartOrder::Frame,
                      " ::sonde::Frame sonde_frame_" +
                          Var.substr(Var.rfind('_') + 1) + "(" + Var + ");");
      }
    }
  }
  // `torch_ops:` asks for op tracing once per process: the file that
  // defines main() switches it on as the program starts.
  if (S.Ops.On)
    for (const HostFunction &H : Hosts)
      if (H.FD->isMain() && B.editable(H.FD->getEndLoc())) {
        uint64_t Id = stableHash("torch_ops|" + File);
        B.insert(B.afterToken(H.FD->getEndLoc()), rank::AfterStmt,
                 " [[maybe_unused]] static const bool sonde_torch_ops_" +
                     utohexstr(Id & 0xffffffffu, true) +
                     " = ::sonde::torch::enableOpTracing(" +
                     (S.Ops.Shapes ? "true" : "false") + ");");
        B.needHeader("sonde/torch.h");
      }
  Plan P = B.finish();
  P.SpecErrors = std::move(SpecErrors);
  // The spec must be fixed first: per-site notes would only bury its errors.
  if (!P.SpecErrors.empty())
    P.Notes.clear();
  // Inserted code needs C++17 (if constexpr, inline variables); under an
  // older standard it would not compile, and the errors would come from
  // inside sonde.h. Found on jsoncpp, which sets CMAKE_CXX_STANDARD 11. A
  // file that gets no insertion still compiles as it is.
  const LangOptions &LO = Ctx.getLangOpts();
  if (!P.Insertions.empty() && !LO.CPlusPlus17)
    return createStringError(
        inconvertibleErrorCode(),
        "instrumented code needs C++17 or later, and '%s' is compiled as %s: "
        "compile it with -std=c++17 (or leave it out of the spec's scope)",
        File.c_str(),
        LangStandard::getLangStandardForKind(LO.LangStd).getName());
  return P;
}

} // namespace rewriter
} // namespace sonde
