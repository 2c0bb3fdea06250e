//===- Instrumenter.cpp - Compiling instrumented text in place ------------===//
//
// The plan comes from a split compile (SplitCompile.cpp) when it can; this
// file holds what both ways share (the pre-check, applying a plan) and the
// nested parse, the way used when a split is not possible
// (verified on clang 14, 16 and 19):
//
//  1. a nested CompilerInstance runs ParseSyntaxOnly on a copy of the
//     invocation, with function bodies outside the main file skipped and
//     TU_Prefix (no end-of-TU template instantiation): the plan needs the
//     main file's bodies and the declarations of everything else, not a
//     complete translation unit. It shares the FileManager and sees the
//     very buffer the real compile will read;
//  2. the engine computes the plan on that AST (exactly what sonde-rewrite
//     computes: the same frontdoor::PlanAction, rewriter/frontdoor/);
//  3. the insertions are applied, the main file's contents overridden AND
//     its FileID re-created: the FileID made before the override keeps the
//     old buffer size, and diagnostics past it would vanish;
//  4. the runtime header goes into the predefines and into
//     PreprocessorOptions::Includes: loading a PCH replaces the predefines
//     with ones computed from the Includes.
//
// Insertions never add a line, so the real compile's line table, __LINE__,
// diagnostics and coverage mapping match an uninstrumented build.
//
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "SpecCodeDiagnostics.h"
#include "SplitCompile.h"

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Edits.h"
#include "sonde/rewriter/frontdoor/PlanAction.h"
#include "sonde/rewriter/frontdoor/RuntimeInclude.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace plugin {

namespace {

thread_local bool InNested = false;

/// Marks the nested parse for the plugin instance clang creates inside it.
struct NestedScope {
  NestedScope() { InNested = true; }
  ~NestedScope() { InNested = false; }
};

/// Swallows the nested parse's diagnostics: the real compile reports the
/// source's own warnings and errors, once, on the user's text. It does not
/// count them either, so the nested instance prints no "N warnings
/// generated"; the DiagnosticsEngine still knows whether an error occurred.
class SilentConsumer : public DiagnosticConsumer {
  void HandleDiagnostic(DiagnosticsEngine::Level, const Diagnostic &) override {
  }
};

/// The invocation of the nested parse: the user's flags, but syntax only,
/// no plugin, and no output of any kind (object, dependency file, stats,
/// serialized diagnostics, time trace).
std::shared_ptr<CompilerInvocation> nestedInvocation(CompilerInstance &CI) {
  auto Inv = std::make_shared<CompilerInvocation>(CI.getInvocation());
  FrontendOptions &FO = Inv->getFrontendOpts();
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  FO.ActionName.clear();
  FO.Plugins.clear();
  FO.AddPluginActions.clear();
  FO.PluginArgs.clear();
  FO.OutputFile.clear();
  FO.DisableFree = false;
  FO.SkipFunctionBodies = true;
  FO.ShowStats = false;
  FO.StatsFile.clear();
  FO.TimeTracePath.clear();
  FO.FixItSuffix.clear();
  Inv->getDependencyOutputOpts() = DependencyOutputOptions();
  Inv->getDiagnosticOpts().DiagnosticSerializationFile.clear();
  // Its diagnostics are swallowed: let Sema skip the analyses that only
  // serve warnings and typo correction.
  Inv->getDiagnosticOpts().IgnoreWarnings = true;
  Inv->getDiagnosticOpts().Warnings.clear();
  Inv->getLangOpts().SpellChecking = false;
  return Inv;
}

/// Whether `Word` occurs in `Text` as a whole identifier.
bool mentions(StringRef Text, StringRef Word) {
  for (size_t Pos = Text.find(Word); Pos != StringRef::npos;
       Pos = Text.find(Word, Pos + 1)) {
    size_t End = Pos + Word.size();
    // A byte of a UTF-8 name counts as a boundary: the check stays
    // conservative (a mention makes the nested parse run).
    auto IsIdent = [](char C) {
      return isAsciiIdentifierContinue(C, /*AllowDollar=*/true);
    };
    if ((Pos == 0 || !IsIdent(Text[Pos - 1])) &&
        (End >= Text.size() || !IsIdent(Text[End])))
      return true;
  }
  return false;
}

/// Whether a function that `G` matches may be defined in `Text`: its last
/// name component (`forward` of `*::forward`) must occur in it, unless that
/// component is itself a glob.
bool mayDefine(const rewriter::FuncGlob &G, StringRef Text, StringRef File) {
  if (!G.matchesFile(File))
    return false;
  StringRef Last = StringRef(G.Glob).rsplit("::").second;
  if (Last.empty())
    Last = G.Glob;
  Last.consume_front("~");
  if (Last.starts_with("operator"))
    Last = "operator";
  if (Last.empty() || Last.find_first_of("*?[") != StringRef::npos)
    return true;
  return mentions(Text, Last);
}

/// A conservative pre-check, so that translation units without any probe
/// (most of a large project) skip the nested parse: no function a selector
/// names, as host or as context, can be defined in `Text`.
bool mayInstrument(const rewriter::Spec &S, StringRef Text, StringRef File) {
  if (S.Ops.On && mentions(Text, "main"))
    return true; // `torch_ops:` goes into the file that defines main()
  for (const rewriter::Probe &P : S.Probes) {
    if (mayDefine(P.Q.Host, Text, File))
      return true;
    for (const rewriter::FuncGlob &C : P.Q.Context)
      if (mayDefine(C, Text, File))
        return true;
  }
  return false;
}

} // namespace

bool inNestedParse() { return InNested; }

void detachNotes(const SourceManager &SM, rewriter::Plan &P) {
  for (rewriter::SourceNote &N : P.Notes) {
    SourceLocation L = SourceLocation::getFromRawEncoding(N.RawLoc);
    if (L.isValid())
      L = SM.getFileLoc(L);
    N.RawLoc = 0;
    if (L.isValid() && SM.isInMainFile(L))
      N.RawLoc = SM.getFileOffset(L) + 1;
  }
}

frontdoor::PlanResult nestedPlan(Job &J) {
  CompilerInstance &CI = J.CI;
  frontdoor::PlanRequest Req;
  Req.FileName = J.InFile;
  Req.Preprocessed = J.Preprocessed;
  Req.OnPlan = [](CompilerInstance &Nested, rewriter::Plan &P) {
    detachNotes(Nested.getSourceManager(), P);
  };
  frontdoor::PlanResult Planned;
  NestedScope Scope;
  CompilerInstance Nested(CI.getPCHContainerOperations());
  Nested.setInvocation(nestedInvocation(CI));
  Nested.createDiagnostics(new SilentConsumer, /*ShouldOwnClient=*/true);
  Nested.setFileManager(&CI.getFileManager());
  Nested.createSourceManager(CI.getFileManager());
  // The nested parse reads the very text the real compile reads, even if
  // the file changes on disk meanwhile.
  Nested.getSourceManager().overrideFileContents(
      J.MainFile, MemoryBufferRef(J.Original, J.MainFile.getName()));
  frontdoor::PlanAction Act(J.S, std::move(Req), Planned);
  Nested.ExecuteAction(Act);
  return Planned;
}

bool applyPlan(Job &J, frontdoor::PlanResult &Planned, const Placer &Place) {
  CompilerInstance &CI = J.CI;
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  SourceManager &SM = CI.getSourceManager();
  const rewriter::Spec &S = J.S;
  std::optional<rewriter::Plan> &P = Planned.P;
  if (!Planned.Errors.empty()) {
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                       "sonde: cannot compute the plan: %0"))
        << Planned.Errors.front();
    return false;
  }
  if (!P)
    return false; // the source has errors: the real compile reports them
  if (!P->SpecErrors.empty()) {
    // Mistakes in the spec that this file shows: at the spec's lines, and
    // the compile fails (as for spec code that does not compile).
    for (const rewriter::SpecNote &N : P->SpecErrors)
      S.diag(N.Loc, SourceMgr::DK_Error, N.Message, N.Length)
          .print(nullptr, errs(), /*ShowColors=*/false);
    Diags.Report(Diags.getCustomDiagID(
        DiagnosticsEngine::Error, "sonde: errors in probe spec '%0' (above); "
                                  "this file is not instrumented"))
        << S.Path;
    return false;
  }

  bool Placed = false;
  if (!P->Insertions.empty()) {
    std::string Rewritten = rewriter::applyEdits(J.Original, *P);
    // A preprocessed input (-save-temps compiles the .ii the driver wrote)
    // has its headers inlined without include guards and no search path:
    // the runtime header can only come from the preprocessing step.
    std::vector<std::string> Headers;
    if (!J.Preprocessed) {
      // The plan names the runtime headers it needs (sonde/sonde.h, and
      // sonde/torch.h for tensors, state and op tracing); they live next to
      // sonde/sonde.h.
      StringRef Include =
          sys::path::parent_path(sys::path::parent_path(J.Header));
      for (const std::string &H : P->RuntimeHeaders) {
        std::string Path = frontdoor::runtimeHeaderPath(Include, H);
        if (Path.empty()) {
          // Without it, tensor values have no ValueTraits and are not
          // recorded; `state:` and `torch_ops:` do not compile.
          Diags.Report(Diags.getCustomDiagID(
              DiagnosticsEngine::Warning,
              "sonde: the instrumented file needs the runtime header '%0', "
              "which is not installed next to '%1'; its values are not "
              "recorded"))
              << H << J.Header;
          continue;
        }
        Headers.push_back(std::move(Path));
      }
    }
    FileID Main = Place(Rewritten, Headers);
    Placed = Main.isValid();
    if (Placed)
      installSpecCodeDiagnostics(CI, S, *P, Main);
  }

  // The plan's own notes (skipped sites) point at the user's text: a copy
  // of the original in a FileID of its own, named as the main file, so the
  // lines they show are the ones the user wrote (and the main file's line
  // table, computed from the instrumented text, is left alone).
  if (!P->Notes.empty()) {
    FileID Orig = SM.createFileID(
        MemoryBuffer::getMemBufferCopy(J.Original, J.MainFile.getName()),
        SrcMgr::C_User);
    SourceLocation Start = SM.getLocForStartOfFile(Orig);
    for (rewriter::SourceNote &N : P->Notes)
      N.RawLoc =
          N.RawLoc ? Start.getLocWithOffset(N.RawLoc - 1).getRawEncoding() : 0;
    rewriter::reportSourceNotes(Diags, P->Notes, J.Opts.Strict);
  }
  if (J.Done)
    J.Done(S, *P);
  return Placed;
}

namespace {

/// The nested parse's way: the plan before the real parse starts, and the
/// instrumented text as the main file's contents.
void instrumentBeforeParse(Job &J) {
  CompilerInstance &CI = J.CI;
  SourceManager &SM = CI.getSourceManager();
  frontdoor::PlanResult Planned = nestedPlan(J);
  applyPlan(J, Planned, [&](StringRef Rewritten, ArrayRef<std::string> Hs) {
    FileID Main = SM.getMainFileID();
    SrcMgr::CharacteristicKind Kind =
        SM.getSLocEntry(Main).getFile().getFileCharacteristic();
    SM.overrideFileContents(J.MainFile, MemoryBuffer::getMemBufferCopy(
                                            Rewritten, J.MainFile.getName()));
    // The FileID made before the override keeps the old buffer size, and
    // diagnostics past it would vanish: a new one.
    Main = SM.createFileID(J.MainFile, SourceLocation(), Kind);
    SM.setMainFileID(Main);
    // Loading a PCH replaces the predefines with ones computed from the
    // Includes: the headers go into both.
    Preprocessor &PP = CI.getPreprocessor();
    std::string Predefines = PP.getPredefines();
    for (const std::string &H : Hs) {
      Predefines += "#include \"" + H + "\"\n";
      CI.getPreprocessorOpts().Includes.push_back(H);
    }
    PP.setPredefines(Predefines);
    return Main;
  });
}

} // namespace

std::unique_ptr<ASTConsumer> instrumentMainFile(const std::shared_ptr<Job> &J) {
  CompilerInstance &CI = J->CI;
  SourceManager &SM = CI.getSourceManager();
  J->Original = SM.getBufferData(SM.getMainFileID()).str();
  const FrontendOptions &FO = CI.getFrontendOpts();
  J->Preprocessed = !FO.Inputs.empty() && FO.Inputs[0].isPreprocessed();

  if (!mayInstrument(J->S, J->Original, J->InFile)) {
    rewriter::Plan P;
    P.File = J->InFile;
    if (J->Done)
      J->Done(J->S, P);
    return std::make_unique<ASTConsumer>();
  }
  if (J->Preprocessed && !StringRef(J->Original).contains("sonde/sonde.h\"")) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "sonde: this preprocessed input (-save-temps, or a .ii file) does not "
        "contain the runtime header; add '-include %0' to the compile flags"))
        << J->Header;
    return std::make_unique<ASTConsumer>();
  }
  if (!J->Opts.NestedParse)
    if (std::unique_ptr<ASTConsumer> Split = splitCompile(J))
      return Split;
  instrumentBeforeParse(*J);
  return std::make_unique<ASTConsumer>();
}

} // namespace plugin
} // namespace sonde
