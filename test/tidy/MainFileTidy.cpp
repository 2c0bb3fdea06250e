//===- tidy/MainFileTidy.cpp - clang-tidy 19 that matches the main file ---===//
//
//   sonde-tidy -p BUILD FILE...
//
// clang-tidy 19's own checks, configuration (.clang-tidy) and reporting,
// with one difference: the checks' matchers walk only the declarations the
// main file itself wrote, as clangd runs them. clang-tidy walks the whole
// translation unit, and for the engine's files, which include the LLVM
// headers, three quarters of its time was matchers over those headers
// (rewriter/plan/ComputePlan.cpp: 42 s of CPU against 7.9 s here), whose
// findings it then throws away: the project's .clang-tidy has no
// HeaderFilterRegex, so a finding outside the main file is never reported.
// Compiler warnings, preprocessor callbacks
// and the parse itself are unchanged. Every finding is an error, as
// `clang-tidy --warnings-as-errors='*'` makes it. Exit status: 0 clean, 1 a
// finding or a file that could not be parsed, 2 a usage error.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tooling;

// The check modules, linked by their anchors as ClangTidyForceLinker.h
// does (Debian's package lacks the clang-tidy-config.h it includes): every
// module clang-tidy-19 has, so that no check named in .clang-tidy is left
// out. scripts/tidy-check compares --list-checks with clang-tidy-19's.
namespace clang::tidy {
#define SONDE_TIDY_ANCHOR(Name)                                                \
  extern volatile int Name##ModuleAnchorSource;                                \
  [[maybe_unused]] static int Name##ModuleAnchorDestination =                  \
      Name##ModuleAnchorSource
SONDE_TIDY_ANCHOR(Abseil);
SONDE_TIDY_ANCHOR(Altera);
SONDE_TIDY_ANCHOR(Android);
SONDE_TIDY_ANCHOR(Boost);
SONDE_TIDY_ANCHOR(Bugprone);
SONDE_TIDY_ANCHOR(CERT);
SONDE_TIDY_ANCHOR(Concurrency);
SONDE_TIDY_ANCHOR(CppCoreGuidelines);
SONDE_TIDY_ANCHOR(Darwin);
SONDE_TIDY_ANCHOR(Fuchsia);
SONDE_TIDY_ANCHOR(Google);
SONDE_TIDY_ANCHOR(HICPP);
SONDE_TIDY_ANCHOR(LinuxKernel);
SONDE_TIDY_ANCHOR(LLVM);
SONDE_TIDY_ANCHOR(LLVMLibc);
SONDE_TIDY_ANCHOR(Misc);
SONDE_TIDY_ANCHOR(Modernize);
SONDE_TIDY_ANCHOR(MPI);
SONDE_TIDY_ANCHOR(ObjC);
SONDE_TIDY_ANCHOR(OpenMP);
SONDE_TIDY_ANCHOR(Performance);
SONDE_TIDY_ANCHOR(Portability);
SONDE_TIDY_ANCHOR(Readability);
SONDE_TIDY_ANCHOR(Zircon);
} // namespace clang::tidy

namespace {

/// Passes everything on to clang-tidy's consumer, and keeps the top-level
/// declarations written in the main file: the matchers' traversal scope
/// when the translation unit is done (what clangd's ParsedAST does).
class MainFileScope : public MultiplexConsumer {
public:
  MainFileScope(std::unique_ptr<ASTConsumer> Tidy, const SourceManager &SM)
      : MultiplexConsumer(consumers(std::move(Tidy))), SM(SM) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())))
        Scope.push_back(D);
    return MultiplexConsumer::HandleTopLevelDecl(Group);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Ctx.setTraversalScope(Scope);
    MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  consumers(std::unique_ptr<ASTConsumer> Tidy) {
    std::vector<std::unique_ptr<ASTConsumer>> All;
    All.push_back(std::move(Tidy));
    return All;
  }

  const SourceManager &SM;
  std::vector<Decl *> Scope;
};

/// clang-tidy's own action (runClangTidy in ClangTidy.cpp), its consumer
/// wrapped in MainFileScope.
class MainFileTidyFactory : public FrontendActionFactory {
public:
  explicit MainFileTidyFactory(ClangTidyContext &Context)
      : ConsumerFactory(Context) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(ConsumerFactory);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: __clang_analyzer__ is defined.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // No "N warnings generated" for the headers' warnings nobody sees (the
    // findings print through clang-tidy's own reporter).
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  class Action : public ASTFrontendAction {
  public:
    explicit Action(ClangTidyASTConsumerFactory &Factory) : Factory(Factory) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                   StringRef File) override {
      return std::make_unique<MainFileScope>(
          Factory.createASTConsumer(CI, File), CI.getSourceManager());
    }

  private:
    ClangTidyASTConsumerFactory &Factory;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
};

/// clang-tidy's defaults, the nearest .clang-tidy over them, and `Override`
/// over both: what clang-tidy's command line builds.
std::unique_ptr<ClangTidyOptionsProvider>
optionsProvider(ClangTidyOptions Override = ClangTidyOptions()) {
  return std::make_unique<FileOptionsProvider>(
      ClangTidyGlobalOptions(), ClangTidyOptions::getDefaults(),
      std::move(Override), llvm::vfs::getRealFileSystem());
}

int usage(const char *Why) {
  llvm::errs() << "sonde-tidy: " << Why
               << "\nusage: sonde-tidy -p BUILD FILE...  |  sonde-tidy "
                  "--list-checks [FILE]\n";
  return 2;
}

} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  std::string BuildDir;
  std::vector<std::string> Files;
  bool ListChecks = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg == "--list-checks")
      ListChecks = true;
    else if (Arg == "-p" && I + 1 < Argc)
      BuildDir = Argv[++I];
    else if (Arg == "-p")
      return usage("-p needs a build directory");
    else if (Arg.starts_with("-"))
      return usage(("unknown option " + Arg).str().c_str());
    else
      Files.push_back(Arg.str());
  }
  if (ListChecks) {
    // The checks enabled for the first file, one per line, as
    // `clang-tidy --list-checks` prints them (after its header line).
    ClangTidyContext Context(optionsProvider());
    Context.setCurrentFile(Files.empty() ? "x.cpp" : Files[0]);
    ClangTidyASTConsumerFactory Factory(Context);
    for (const std::string &Name : Factory.getCheckNames())
      llvm::outs() << "    " << Name << "\n";
    return 0;
  }
  if (BuildDir.empty() || Files.empty())
    return usage("a build directory and at least one file are needed");
  std::string Error;
  std::unique_ptr<CompilationDatabase> Db =
      CompilationDatabase::loadFromDirectory(BuildDir, Error);
  if (!Db)
    return usage(
        ("no compile commands in " + BuildDir + ": " + StringRef(Error).trim())
            .str()
            .c_str());

  ClangTidyOptions EveryWarningAnError;
  EveryWarningAnError.WarningsAsErrors = "*";
  ClangTidyContext Context(optionsProvider(std::move(EveryWarningAnError)));

  ClangTool Tool(*Db, Files);
  // As clang-tidy: a configuration's ExtraArgsBefore and ExtraArgs.
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, StringRef File) {
        ClangTidyOptions Opts = Context.getOptionsForFile(File);
        CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto At = Adjusted.begin();
          if (At != Adjusted.end() && !StringRef(*At).starts_with("-"))
            ++At; // after the compiler's name
          Adjusted.insert(At, Opts.ExtraArgsBefore->begin(),
                          Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                          Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
  ClangTidyDiagnosticConsumer DiagConsumer(Context);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(),
                       &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  MainFileTidyFactory Factory(Context);
  int Status = Tool.run(&Factory);
  std::vector<ClangTidyError> Errors = DiagConsumer.take();
  unsigned AsErrors = 0;
  handleErrors(Errors, Context, FB_NoFix, AsErrors,
               llvm::vfs::getRealFileSystem());
  // A file that could not be parsed has its errors among the findings.
  return Status != 0 || !Errors.empty() ? 1 : 0;
}
