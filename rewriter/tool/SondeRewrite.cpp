//===- SondeRewrite.cpp - sonde-rewrite: instrument sources ---------------===//
//
// The LibTooling front door: arguments, the compilation database, reading
// and writing files. Everything about probes is decided by the engine
// (computePlan); this file only runs it and writes its results.
//
//   sonde-rewrite --spec probes.yaml [-p BUILD_DIR] [options] SOURCE...
//                 [-- COMPILER_ARGS]
//
// Exit status: 0 done; 1 errors in the spec or its selectors; 2 usage or
// source errors.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Edits.h"
#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;
using namespace sonde::rewriter;

#ifndef SONDE_RUNTIME_INCLUDE_DIR
#define SONDE_RUNTIME_INCLUDE_DIR ""
#endif
#ifndef SONDE_RUNTIME_INCLUDE_REL
#define SONDE_RUNTIME_INCLUDE_REL "../include"
#endif
#ifndef SONDE_CLANG_RESOURCE_DIR
#define SONDE_CLANG_RESOURCE_DIR ""
#endif

namespace {

enum ExitCode { ExitOk = 0, ExitSpec = 1, ExitSource = 2 };

cl::OptionCategory Category("sonde-rewrite options");

cl::opt<std::string> SpecPath("spec", cl::desc("The probe spec (probes.yaml)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> OutDir("o",
                            cl::desc("Write instrumented copies under DIR "
                                     "(relative paths kept)"),
                            cl::value_desc("DIR"), cl::cat(Category));
cl::opt<bool> InPlace("in-place",
                      cl::desc("Replace the sources (atomic; refuses a file "
                               "that changed meanwhile)"),
                      cl::cat(Category));
cl::opt<bool> Diff("diff", cl::desc("Print a unified diff instead of writing"),
                   cl::cat(Category));
cl::opt<bool> ListSites("list-sites", cl::desc("Print the plan's sites"),
                        cl::cat(Category));
cl::opt<std::string> Format("format",
                            cl::desc("Format of --list-sites: text or json"),
                            cl::init("text"), cl::cat(Category));
cl::opt<bool> Strict("strict",
                     cl::desc("Warnings (a selector that matches nothing, a "
                              "skipped site) are errors"),
                     cl::cat(Category));
/// Build systems run one sonde-rewrite per source, where a selector that
/// matches nothing in this one file is the normal case, not a mistake.
cl::opt<bool> QuietUnmatched(
    "quiet-unmatched",
    cl::desc("Do not warn about selectors that match nothing in these "
             "sources (with --strict they are still errors)"),
    cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Parallel translation units"), cl::init(1),
                       cl::cat(Category));
cl::opt<std::string>
    RuntimeInclude("runtime-include",
                   cl::desc("Where sonde/sonde.h is, to check spec code "
                            "(`when`, `args`) in place (default: next to "
                            "this executable once installed, else the "
                            "source tree it was built from)"),
                   cl::cat(Category));
cl::opt<bool> NoVerify("no-verify",
                       cl::desc("Do not compile-check spec code in place"),
                       cl::cat(Category));
cl::opt<bool> Verify(
    "verify",
    cl::desc("Compile every instrumented text (syntax only) before writing "
             "it; code that does not compile is an error, never written"),
    cl::cat(Category));

/// The directory holding sonde/sonde.h: --runtime-include, else next to
/// this executable once installed (<prefix>/bin/../include), else the
/// source tree it was built from. Empty if none has the header.
std::string findRuntimeInclude(const char *Argv0) {
  auto Has = [](StringRef Dir) {
    SmallString<256> P(Dir);
    sys::path::append(P, "sonde", "sonde.h");
    return !Dir.empty() && sys::fs::exists(P);
  };
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  if (!Exe.empty()) {
    SmallString<256> Dir(Exe);
    sys::path::remove_filename(Dir);
    sys::path::append(Dir, SONDE_RUNTIME_INCLUDE_REL);
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    if (Has(Dir))
      return Dir.str().str();
  }
  return Has(SONDE_RUNTIME_INCLUDE_DIR) ? SONDE_RUNTIME_INCLUDE_DIR : "";
}
std::string IncludeDir; ///< findRuntimeInclude's answer

/// What one translation unit produced.
struct Result {
  std::string Path;     ///< the source as given
  std::string Original; ///< the text the plan was computed from
  std::optional<Plan> P;
  std::string Rewritten;   ///< Original with P applied, once it parsed
  std::string Diagnostics; ///< rendered compiler and engine messages
  bool SourceError = false;
  bool StrictError = false;
  bool SpecConflict = false; ///< two probes record the same event
  /// Spec code that does not compile: where in the spec, and the message.
  /// Rendered on the main thread (the spec's SourceMgr is not thread-safe).
  std::vector<std::pair<SpecLoc, std::string>> SpecErrors;
  /// Errors in the instrumented text outside spec code: sonde's own bugs.
  bool EngineError = false;
};

/// Runs the engine inside one compile.
class PlanConsumer : public ASTConsumer {
public:
  PlanConsumer(CompilerInstance &CI, const Spec &S, Result &R)
      : CI(CI), S(S), R(R) {}
  /// Bodies outside the main file are never instrumented: skipping them
  /// saves most of a parse of heavy headers (Sema still parses those it
  /// needs: constexpr functions, deduced return types).
  bool shouldSkipFunctionBody(Decl *D) override {
    return !CI.getSourceManager().isInMainFile(
        CI.getSourceManager().getExpansionLoc(D->getLocation()));
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (D.hasErrorOccurred()) {
      // The compiler reports the source's own errors; we instrument nothing.
      R.SourceError = true;
      return;
    }
    SourceManager &SM = Ctx.getSourceManager();
    R.Original = SM.getBufferData(SM.getMainFileID()).str();
    PlanOptions Opts;
    Opts.FileName = R.Path;
    Expected<Plan> P = computePlan(Ctx, S, Opts);
    if (!P) {
      R.Diagnostics +=
          "sonde-rewrite: error: " + toString(P.takeError()) + "\n";
      R.SourceError = true;
      return;
    }
    unsigned ErrorsBefore = D.getNumErrors();
    // A plan with spec errors is not applied: its per-site notes would only
    // bury the error (the plugin does not report them either).
    if (P->SpecErrors.empty())
      reportSourceNotes(D, P->Notes, Strict);
    if (D.getNumErrors() > ErrorsBefore)
      R.StrictError = true;
    for (const SourceNote &N : P->Notes)
      R.SpecConflict |= N.Flag == "sonde-conflict";
    R.P = std::move(*P);
  }

private:
  CompilerInstance &CI;
  const Spec &S;
  Result &R;
};

class PlanAction : public ASTFrontendAction {
public:
  PlanAction(const Spec &S, Result &R, raw_ostream &Log)
      : S(S), R(R), Log(Log) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getFrontendOpts().SkipFunctionBodies = true;
    // "N errors generated" after the messages it counts, not before.
    CI.setVerboseOutputStream(Log);
    return std::make_unique<PlanConsumer>(CI, S, R);
  }
  /// The plan needs template patterns, not the instantiations done at the
  /// end of the TU.
  TranslationUnitKind getTranslationUnitKind() override { return TU_Prefix; }

private:
  const Spec &S;
  Result &R;
  raw_ostream &Log;
};

class PlanActionFactory : public FrontendActionFactory {
public:
  PlanActionFactory(const Spec &S, Result &R, raw_ostream &Log)
      : S(S), R(R), Log(Log) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<PlanAction>(S, R, Log);
  }

private:
  const Spec &S;
  Result &R;
  raw_ostream &Log;
};

/// A syntax-only compile that skips function bodies outside the main file.
class MainBodiesConsumer : public ASTConsumer {
public:
  explicit MainBodiesConsumer(const SourceManager &SM) : SM(SM) {}
  bool shouldSkipFunctionBody(Decl *D) override {
    return !SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  }

private:
  const SourceManager &SM;
};

class MainBodiesAction : public ASTFrontendAction {
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<MainBodiesConsumer>(CI.getSourceManager());
  }
};

/// Collects errors of a syntax-only compile of the rewritten text.
class ErrorCollector : public DiagnosticConsumer {
public:
  struct Err {
    unsigned Offset;
    bool InMain;
    std::string Message;
  };
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < DiagnosticsEngine::Error)
      return;
    SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Err E{0, false, Msg.str().str()};
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation Loc = SM.getFileLoc(Info.getLocation());
      E.InMain = SM.isInMainFile(Loc);
      if (E.InMain)
        E.Offset = SM.getFileOffset(Loc);
    }
    Errors.push_back(std::move(E));
  }
  std::vector<Err> Errors;
};

/// Drops the build's warning policy (-Werror, -Werror=X, -pedantic-errors):
/// sonde-rewrite reads the code, the compiler that builds the result
/// enforces the policy. Clang is stricter than g++ under -pedantic-errors
/// (fmt's tests pass no argument to a variadic macro's `...`, a C++20
/// extension clang rejects), and a g++ build's flags must not stop the
/// rewrite of code g++ accepts.
ArgumentsAdjuster stripWarningPolicy() {
  return [](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments Out;
    for (const std::string &A : Args)
      if (A != "-Werror" && !StringRef(A).starts_with("-Werror=") &&
          A != "-pedantic-errors")
        Out.push_back(A);
    return Out;
  };
}

ArgumentsAdjuster commonAdjuster() {
  ArgumentsAdjuster A =
      combineAdjusters(getClangSyntaxOnlyAdjuster(), stripWarningPolicy());
  std::string Resource = SONDE_CLANG_RESOURCE_DIR;
  if (!Resource.empty())
    A = combineAdjusters(
        A, getInsertArgumentAdjuster(("-resource-dir=" + Resource).c_str(),
                                     ArgumentInsertPosition::END));
  return A;
}

/// Compiles the rewritten text when it holds spec code (or always, with
/// --verify), and reports errors inside that code at the spec's own line
/// (`probes.yaml:14:9: error:`). An error anywhere else is sonde's: it is
/// reported as such and the text is not written.
void verifyRewritten(const CompilationDatabase &DB, const Spec &S, Result &R,
                     const std::string &Rewritten) {
  const Plan &P = *R.P;
  if (!Verify && (P.SpecCode.empty() || NoVerify))
    return;
  if (IncludeDir.empty()) {
    R.Diagnostics += "sonde-rewrite: warning: sonde/sonde.h not found; the "
                     "instrumented text of '" +
                     R.Path + "' is not checked (use --runtime-include DIR)\n";
    return;
  }
  // Where each insertion landed in the rewritten text.
  std::vector<unsigned> Start(P.Insertions.size());
  unsigned Shift = 0;
  for (size_t I = 0; I < P.Insertions.size(); ++I) {
    Start[I] = P.Insertions[I].Offset + Shift;
    Shift += P.Insertions[I].Text.size();
  }
  ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                 llvm::vfs::createPhysicalFileSystem());
  Tool.mapVirtualFile(R.Path, Rewritten);
  Tool.appendArgumentsAdjuster(commonAdjuster());
  CommandLineArguments Extra;
  for (const std::string &H : P.RuntimeHeaders) {
    // A header this install lacks would stop the compile before any spec
    // code is checked (the plugin warns about it).
    SmallString<256> Path(IncludeDir);
    sys::path::append(Path, H);
    if (!sys::fs::exists(Path))
      continue;
    Extra.push_back("-include");
    Extra.push_back(H);
  }
  Extra.push_back("-I");
  Extra.push_back(IncludeDir);
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Extra, ArgumentInsertPosition::END));
  // Only errors matter here: the source's own warnings were shown by the
  // first parse, and under -Werror they would pose as errors.
  // -fno-caret-diagnostics also stops the "N errors generated." line.
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster({"-w", "-Wno-error", "-fno-caret-diagnostics"},
                                ArgumentInsertPosition::END));
  Tool.setPrintErrorMessage(false);
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  Tool.run(newFrontendActionFactory<MainBodiesAction>().get());
  unsigned EngineErrors = 0;
  std::string FirstEngineError;
  for (const ErrorCollector::Err &E : Errors.Errors) {
    bool InSpecCode = false;
    for (const SpecCodeSpan &Sp : P.SpecCode) {
      unsigned B = Start[Sp.InsertionIndex] + Sp.Begin;
      unsigned End = Start[Sp.InsertionIndex] + Sp.End;
      if (!E.InMain || E.Offset < B || E.Offset > End)
        continue;
      SpecLoc L{Sp.Loc.Line, Sp.Loc.Col + (E.Offset - B)};
      R.SpecErrors.push_back({L, E.Message + " (in " + R.Path + ")"});
      InSpecCode = true;
      break;
    }
    if (InSpecCode)
      continue;
    // Not the spec's code: the engine produced text that does not compile
    // (the original did). Line numbers are the original's: insertions add
    // no newline.
    if (EngineErrors++)
      continue;
    FirstEngineError = R.Path;
    if (E.InMain) {
      StringRef Before = StringRef(Rewritten).take_front(E.Offset);
      FirstEngineError += ":" + std::to_string(Before.count('\n') + 1);
    }
    FirstEngineError += ": error: sonde-rewrite produced code that does not "
                        "compile (a sonde bug; please report it with the "
                        "spec and this file): " +
                        E.Message;
  }
  // The first error says where; the rest usually follow from it.
  if (EngineErrors) {
    R.Diagnostics += FirstEngineError;
    if (EngineErrors > 1)
      R.Diagnostics +=
          " (and " + std::to_string(EngineErrors - 1) + " more errors)";
    R.Diagnostics += "\n";
    R.EngineError = true;
  }
}

/// Whether `Path` is `Root` or below it (both absolute, without dots).
bool isWithin(StringRef Path, StringRef Root) {
  if (!Path.starts_with(Root))
    return false;
  return Path.size() == Root.size() || Root.ends_with("/") ||
         sys::path::is_separator(Path[Root.size()]);
}

/// Where -o DIR puts the copy of `Source`: DIR/<its path relative to the
/// current directory>, or, for a file outside the current directory,
/// DIR/<its absolute path without the leading '/'>. `..` never climbs out of
/// DIR: the path is made absolute and its dots removed first.
std::string outputPath(StringRef Dir, StringRef Source) {
  SmallString<256> Abs(Source);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  // relative_path drops the separator after the current directory, which
  // is part of the directory itself when it is '/'.
  bool Below = isWithin(Abs, Cwd) && Abs.size() > Cwd.size();
  StringRef Rel = sys::path::relative_path(
      Below ? StringRef(Abs).drop_front(Cwd.size()) : StringRef(Abs));
  SmallString<256> Out(Dir);
  sys::path::append(Out, Rel);
  return Out.str().str();
}

/// Refuses to write `Out` (under -o DIR) unless the directory it lands in
/// is, with symlinks resolved, inside DIR: a symlinked directory in DIR
/// must not carry the copy elsewhere. Creates the directories.
Error checkOutput(StringRef Dir, StringRef Out) {
  SmallString<256> RealDir, RealParent;
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(EC, "cannot create '%s'", Dir.str().c_str());
  if (std::error_code EC = sys::fs::real_path(Dir, RealDir))
    return createStringError(EC, "cannot resolve '%s'", Dir.str().c_str());
  StringRef Parent = sys::path::parent_path(Out);
  // Check before creating anything: the deepest existing ancestor must be
  // inside DIR already.
  SmallString<256> Probe(Parent);
  while (!sys::fs::exists(Probe) && sys::path::has_parent_path(Probe))
    Probe = sys::path::parent_path(Probe);
  if (sys::fs::real_path(Probe, RealParent) || !isWithin(RealParent, RealDir))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' would be written outside '%s' (through "
                             "'%s'); not written",
                             Out.str().c_str(), Dir.str().c_str(),
                             Probe.c_str());
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return createStringError(EC, "cannot create '%s'", Parent.str().c_str());
  if (sys::fs::real_path(Parent, RealParent) || !isWithin(RealParent, RealDir))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' would be written outside '%s'; not written",
                             Out.str().c_str(), Dir.str().c_str());
  return Error::success();
}

/// The file --in-place replaces for `Source`: its real path (a symlink is
/// followed, so the link stays a link), which must lie inside the tree,
/// the current directory with symlinks resolved.
Expected<std::string> inPlaceTarget(StringRef Source) {
  SmallString<256> Real, Tree;
  if (std::error_code EC = sys::fs::real_path(Source, Real))
    return createStringError(EC, "cannot resolve '%s'", Source.str().c_str());
  if (std::error_code EC = sys::fs::real_path(".", Tree))
    return createStringError(EC, "cannot resolve the current directory");
  if (!isWithin(Real, Tree))
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is '%s', outside the tree being rewritten ('%s', the "
        "current directory); not replaced",
        Source.str().c_str(), Real.c_str(), Tree.c_str());
  return Real.str().str();
}

/// Writes `Text` to `Path` through a temporary and a rename, so that
/// `Path` is at every moment either the old file or the whole new one (a
/// kill -9 leaves at worst a stray temporary). The new file keeps the old
/// one's permissions and reaches the disk before it replaces it.
Error writeAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Tmp(Path);
  Tmp += ".sonde-tmp-%%%%%%";
  int FD;
  SmallString<256> TmpPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Tmp, FD, TmpPath))
    return createStringError(EC, "cannot create a temporary next to '%s'",
                             Path.str().c_str());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    sys::fs::file_status St;
    if (!sys::fs::status(Path, St))
      sys::fs::setPermissions(FD, St.permissions());
    OS << Text;
    OS.flush();
    if (!OS.has_error())
      ::fsync(FD);
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(TmpPath);
      return createStringError(OS.error(), "cannot write '%s'",
                               TmpPath.c_str());
    }
  }
  if (std::error_code EC = sys::fs::rename(TmpPath, Path)) {
    sys::fs::remove(TmpPath);
    return createStringError(EC, "cannot replace '%s'", Path.str().c_str());
  }
  return Error::success();
}

} // namespace

int main(int argc, const char **argv) {
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  cl::HideUnrelatedOptions(Category);
  auto Parser = CommonOptionsParser::create(argc, argv, Category, cl::OneOrMore,
                                            "sonde-rewrite: instrument C++ "
                                            "sources from a probe spec\n");
  if (!Parser) {
    errs() << "sonde-rewrite: " << toString(Parser.takeError()) << "\n";
    return ExitSource;
  }
  if (SpecPath.empty()) {
    errs() << "sonde-rewrite: error: --spec probes.yaml is required\n";
    return ExitSource;
  }
  if (int(InPlace) + int(Diff) + int(!OutDir.empty()) > 1) {
    errs() << "sonde-rewrite: error: choose one of -o, --in-place and "
              "--diff\n";
    return ExitSource;
  }
  if (Format != "text" && Format != "json") {
    errs() << "sonde-rewrite: error: --format is 'text' or 'json'\n";
    return ExitSource;
  }
  IncludeDir = findRuntimeInclude(argv[0]);
  Expected<Spec> S = loadSpec(SpecPath);
  if (!S) {
    handleAllErrors(S.takeError(),
                    [](const SpecDiagnostics &D) { D.log(errs()); });
    return ExitSpec;
  }

  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  CompilationDatabase &DB = Parser->getCompilations();
  std::vector<Result> Results(Sources.size());
  std::atomic<size_t> Next{0}, Done{0};
  std::mutex ErrMutex;
  bool Progress = Sources.size() > 1;
  auto Worker = [&] {
    while (true) {
      size_t I = Next++;
      if (I >= Sources.size())
        return;
      Result &R = Results[I];
      R.Path = Sources[I];
      // A physical file system per tool: its working directory is its own,
      // not the process's, so threads do not race on chdir.
      ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                     llvm::vfs::createPhysicalFileSystem());
      Tool.appendArgumentsAdjuster(commonAdjuster());
      std::string Rendered;
      raw_string_ostream DiagOS(Rendered);
      // The printer keeps a reference count on its options.
      TextDiagnosticPrinter Printer(DiagOS, new DiagnosticOptions());
      Tool.setDiagnosticConsumer(&Printer);
      PlanActionFactory Factory(*S, R, DiagOS);
      // The compiler's messages say what failed; not "Error while
      // processing".
      Tool.setPrintErrorMessage(false);
      int RC = Tool.run(&Factory);
      if (RC != 0 && !R.P)
        R.SourceError = true;
      DiagOS.flush();
      R.Diagnostics = Rendered + R.Diagnostics;
      if (R.P && !R.SourceError) {
        R.Rewritten = applyEdits(R.Original, *R.P);
        verifyRewritten(DB, *S, R, R.Rewritten);
      }
      size_t N = ++Done;
      std::lock_guard<std::mutex> Lock(ErrMutex);
      errs() << R.Diagnostics;
      if (Progress)
        errs() << "[" << N << "/" << Sources.size() << "] " << R.Path << "\n";
    }
  };
  unsigned NJobs = std::max(1u, std::min<unsigned>(Jobs, Sources.size()));
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T < NJobs; ++T)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();

  int Exit = ExitOk;
  // Spec code that does not compile is the spec's error.
  std::set<std::tuple<unsigned, unsigned, std::string>> Reported;
  for (const Result &R : Results)
    for (const auto &[L, Msg] : R.SpecErrors) {
      // One message per spec position, however many sites share the code.
      if (!Reported.insert({L.Line, L.Col, Msg}).second)
        continue;
      S->diag(L, SourceMgr::DK_Error, Msg, 1).print(nullptr, errs(), false);
      Exit = ExitSpec;
    }
  // Spec mistakes the source shows (a capture no matched function declares).
  for (const Result &R : Results)
    if (R.P)
      for (const SpecNote &N : R.P->SpecErrors) {
        if (!Reported.insert({N.Loc.Line, N.Loc.Col, N.Message}).second)
          continue;
        S->diag(N.Loc, SourceMgr::DK_Error, N.Message, N.Length)
            .print(nullptr, errs(), false);
        Exit = ExitSpec;
      }
  // A selector that matches nothing anywhere.
  bool AllParsed = true;
  for (const Result &R : Results)
    AllParsed &= R.P.has_value();
  if (AllParsed && (Strict || !QuietUnmatched)) {
    for (const Probe &Pr : S->Probes) {
      unsigned Count = 0;
      for (const Result &R : Results)
        Count += R.P->MatchCounts[Pr.Index];
      if (Count)
        continue;
      S->diag(Pr.AtLoc, Strict ? SourceMgr::DK_Error : SourceMgr::DK_Warning,
              "selector '" + Pr.At + "' matches nothing", Pr.At.size())
          .print(nullptr, errs(), false);
      if (Strict)
        Exit = ExitSpec;
    }
  }
  for (const Result &R : Results)
    if (R.SpecConflict)
      Exit = ExitSpec;
  if (Exit == ExitSpec)
    return ExitSpec;
  for (const Result &R : Results)
    if (R.SourceError || R.StrictError || R.EngineError)
      return ExitSource;

  if (ListSites) {
    if (Format == "json") {
      json::Array All;
      for (const Result &R : Results) {
        std::string Buf;
        raw_string_ostream OS(Buf);
        R.P->printSitesJson(OS);
        OS.flush();
        Expected<json::Value> V = json::parse(Buf);
        if (V)
          if (json::Array *A = V->getAsArray())
            for (json::Value &E : *A)
              All.push_back(std::move(E));
      }
      outs() << formatv("{0:2}", json::Value(std::move(All))) << "\n";
    } else {
      for (const Result &R : Results)
        R.P->printSites(outs());
    }
    return ExitOk;
  }

  // Tests only: a command run once before anything is written, to change
  // files between their reading and their replacement deterministically.
  if (const char *Hook = std::getenv("SONDE_REWRITE_TEST_BEFORE_WRITE"))
    if (*Hook && (InPlace || !OutDir.empty()))
      (void)std::system(Hook);
  for (const Result &R : Results) {
    const std::string &Rewritten = R.Rewritten;
    if (Diff) {
      outs() << unifiedDiff(R.Path, R.Path, R.Original, Rewritten);
      continue;
    }
    if (InPlace) {
      Expected<std::string> Target = inPlaceTarget(R.Path);
      if (!Target) {
        errs() << "sonde-rewrite: error: " << toString(Target.takeError())
               << "\n";
        Exit = ExitSource;
        continue;
      }
      auto Now = MemoryBuffer::getFile(*Target, /*IsText=*/true);
      if (!Now || (*Now)->getBuffer() != R.Original) {
        errs() << "sonde-rewrite: error: '" << R.Path
               << "' changed since it was read; not replaced\n";
        Exit = ExitSource;
        continue;
      }
      if (Error E = writeAtomically(*Target, Rewritten)) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
      continue;
    }
    if (!OutDir.empty()) {
      std::string Out = outputPath(OutDir, R.Path);
      Error E = checkOutput(OutDir, Out);
      if (!E)
        E = writeAtomically(Out, Rewritten);
      if (E) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
      continue;
    }
    outs() << Rewritten;
  }
  return Exit;
}
