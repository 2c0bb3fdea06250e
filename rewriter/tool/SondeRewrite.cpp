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
#include "sonde/rewriter/Unmatched.h"
#include "sonde/rewriter/frontdoor/PlanAction.h"
#include "sonde/rewriter/frontdoor/RuntimeInclude.h"
#include "sonde/rewriter/frontdoor/SpecCodeMap.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;
using namespace sonde;
using namespace sonde::rewriter;

#ifndef SONDE_CLANG_RESOURCE_DIR
#define SONDE_CLANG_RESOURCE_DIR ""
#endif
#ifndef SONDE_VERSION
#define SONDE_VERSION "(unknown version)"
#endif

namespace {

enum ExitCode { ExitOk = 0, ExitSpec = 1, ExitSource = 2 };

cl::OptionCategory Category("sonde-rewrite options");

cl::opt<std::string> SpecPath("spec", cl::desc("The probe spec (probes.yaml)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> OutDir("o",
                            cl::desc("Write instrumented copies under DIR "
                                     "(relative paths kept); '-' is the "
                                     "standard output, the default"),
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
cl::opt<std::string> MatchDir(
    "match-dir",
    cl::desc("Write each source's match summary (which probes it matched, "
             "which functions it defines) into DIR, for --report-unmatched"),
    cl::value_desc("DIR"), cl::cat(Category));
cl::opt<std::string> ReportUnmatched(
    "report-unmatched",
    cl::desc("Report each probe that matched nothing in any of the sources "
             "listed in the file given as the source, going by their match "
             "summaries in --match-dir (written by --match-dir or the "
             "plugin's match-dir=), naming WHAT (`target trainer`); with "
             "--strict they are errors"),
    cl::value_desc("WHAT"), cl::cat(Category));
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
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  static int Anchor;
  return frontdoor::findRuntimeInclude(
      sys::fs::getMainExecutable(Argv0, &Anchor),
      frontdoor::InstalledIn::BinDir);
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
  bool failed() const { return SourceError || StrictError || EngineError; }
};

/// The shared PlanAction, for each compile a ClangTool runs.
class PlanActionFactory : public FrontendActionFactory {
public:
  PlanActionFactory(const Spec &S, frontdoor::PlanRequest Req,
                    frontdoor::PlanResult &Out)
      : S(S), Req(std::move(Req)), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<frontdoor::PlanAction>(S, Req, Out);
  }

private:
  const Spec &S;
  frontdoor::PlanRequest Req;
  frontdoor::PlanResult &Out;
};

/// Collects errors of a syntax-only compile of the rewritten text.
class ErrorCollector : public DiagnosticConsumer {
public:
  struct Err {
    unsigned Offset;
    bool InMain;
    std::string Message;
    bool Located = false; ///< in some file (not the command line)
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
      E.Located = true;
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

/// Serializes what worker threads print.
std::mutex ErrMutex;

/// Drops the flags clang does not know (g++'s own, like
/// -fconcepts-diagnostics-depth=2 in a g++ build's flags): they are the
/// build compiler's business, and clang would stop at them with "unknown
/// argument". Each dropped flag is named once per run.
ArgumentsAdjuster dropUnknownFlags() {
  return [](const CommandLineArguments &Args, StringRef) {
    if (Args.size() < 2)
      return Args;
    std::vector<const char *> Argv;
    for (size_t I = 1; I < Args.size(); ++I)
      Argv.push_back(Args[I].c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    const opt::OptTable &Table = clang::driver::getDriverOptTable();
    opt::InputArgList Parsed =
        Table.ParseArgs(Argv, MissingIndex, MissingCount,
                        opt::Visibility(clang::driver::options::ClangOption));
    std::set<unsigned> Drop; // indices into Args
    for (const opt::Arg *A :
         Parsed.filtered(clang::driver::options::OPT_UNKNOWN))
      Drop.insert(A->getIndex() + 1);
    if (Drop.empty())
      return Args;
    CommandLineArguments Out;
    static std::set<std::string> Named;
    std::lock_guard<std::mutex> Lock(ErrMutex);
    for (size_t I = 0; I < Args.size(); ++I) {
      if (!Drop.count(I)) {
        Out.push_back(Args[I]);
        continue;
      }
      if (Named.insert(Args[I]).second)
        errs() << "sonde-rewrite: warning: clang does not know the flag '"
               << Args[I]
               << "'; sonde-rewrite parses without it (the compiler that "
                  "builds the result still gets it)\n";
    }
    return Out;
  };
}

ArgumentsAdjuster commonAdjuster() {
  ArgumentsAdjuster A = combineAdjusters(
      combineAdjusters(getClangSyntaxOnlyAdjuster(), stripWarningPolicy()),
      dropUnknownFlags());
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
  ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                 llvm::vfs::createPhysicalFileSystem());
  Tool.mapVirtualFile(R.Path, Rewritten);
  Tool.appendArgumentsAdjuster(commonAdjuster());
  CommandLineArguments Extra;
  for (const std::string &H : P.RuntimeHeaders) {
    // A header this install lacks would stop the compile before any spec
    // code is checked (the plugin warns about it).
    if (frontdoor::runtimeHeaderPath(IncludeDir, H).empty())
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
  Tool.run(newFrontendActionFactory<frontdoor::MainBodiesAction>().get());
  unsigned EngineErrors = 0;
  std::string FirstEngineError;
  frontdoor::SpecCodeMap SpecCode(P);
  for (const ErrorCollector::Err &E : Errors.Errors) {
    if (std::optional<SpecLoc> L =
            E.InMain ? SpecCode.find(E.Offset) : std::nullopt) {
      R.SpecErrors.push_back({*L, E.Message + " (in " + R.Path + ")"});
      continue;
    }
    // An error of no file (the command line: a flag of the build) is not
    // in the text sonde produced: never blamed on sonde.
    if (!E.Located) {
      R.Diagnostics += "sonde-rewrite: error: cannot check the instrumented "
                       "text of '" +
                       R.Path + "': " + E.Message + "\n";
      R.EngineError = true;
      continue;
    }
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

/// An error naming what failed and the system's reason (errno's text).
Error ioError(std::error_code EC, const Twine &What) {
  return createStringError(EC, "%s: %s", What.str().c_str(),
                           EC.message().c_str());
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
    return ioError(EC, "cannot create '" + Dir + "'");
  if (std::error_code EC = sys::fs::real_path(Dir, RealDir))
    return ioError(EC, "cannot resolve '" + Dir + "'");
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
    return ioError(EC, "cannot create '" + Parent + "'");
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
    return ioError(EC, "cannot resolve '" + Source + "'");
  if (std::error_code EC = sys::fs::real_path(".", Tree))
    return ioError(EC, "cannot resolve the current directory");
  if (!isWithin(Real, Tree))
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is '%s', outside the tree being rewritten ('%s', the "
        "current directory); not replaced",
        Source.str().c_str(), Real.c_str(), Tree.c_str());
  return Real.str().str();
}

/// Refuses to replace `Path` when the user could not write it in place: a
/// file this user may not write (a rename in a writable directory would
/// replace it all the same), or one whose owner or group the replacement
/// could not keep.
Error checkReplaceable(StringRef Path, struct stat &St) {
  if (::stat(Path.str().c_str(), &St) != 0)
    return ioError(std::error_code(errno, std::generic_category()),
                   "cannot read the status of '" + Path + "'");
  if (::access(Path.str().c_str(), W_OK) != 0)
    return ioError(std::error_code(errno, std::generic_category()),
                   "'" + Path + "' is not writable by this user; not replaced");
  return Error::success();
}

/// Writes `Text` to `Path` through a temporary and a rename, so that
/// `Path` is at every moment either the old file or the whole new one (a
/// kill -9 leaves at worst a stray temporary). The new file keeps the old
/// one's permissions, owner and group (or `Path` is not replaced), and
/// reaches the disk before it replaces it.
Error writeAtomically(StringRef Path, StringRef Text) {
  struct stat Old;
  bool Existed = ::stat(Path.str().c_str(), &Old) == 0;
  if (Existed)
    if (Error E = checkReplaceable(Path, Old))
      return E;
  SmallString<256> Tmp(Path);
  Tmp += ".sonde-tmp-%%%%%%";
  int FD;
  SmallString<256> TmpPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Tmp, FD, TmpPath))
    return ioError(EC, "cannot create a temporary next to '" + Path + "'");
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    if (Existed) {
      // Owner and group first: chown may clear the set-id bits.
      if ((Old.st_uid != ::geteuid() || Old.st_gid != ::getegid()) &&
          ::fchown(FD, Old.st_uid, Old.st_gid) != 0) {
        std::error_code EC(errno, std::generic_category());
        OS.close();
        sys::fs::remove(TmpPath);
        return ioError(EC, "'" + Path + "' belongs to uid " +
                               Twine(Old.st_uid) + " gid " + Twine(Old.st_gid) +
                               ", which its replacement could not keep; "
                               "not replaced");
      }
      ::fchmod(FD, Old.st_mode & 07777);
    }
    OS << Text;
    OS.flush();
    if (!OS.has_error())
      ::fsync(FD);
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(TmpPath);
      return ioError(EC, "cannot write '" + TmpPath + "'");
    }
  }
  if (std::error_code EC = sys::fs::rename(TmpPath, Path)) {
    sys::fs::remove(TmpPath);
    return ioError(EC, "cannot replace '" + Path + "'");
  }
  return Error::success();
}

#ifdef SONDE_REWRITE_TEST_HOOKS
/// Test seams, compiled only into sonde-rewrite-test-hooks (never built
/// into the installed sonde-rewrite): the command in the environment
/// variable `Name`, run once at that moment, to change files between their
/// reading and their replacement deterministically.
void testHook(const char *Name) {
  if (const char *Cmd = std::getenv(Name))
    if (*Cmd)
      (void)std::system(Cmd);
}
#else
void testHook(const char *) {}
#endif

/// Prints a command-line parsing error once prefixed: llvm::cl starts
/// every line with the program's name already.
void printUsageError(StringRef Msg, StringRef Prog) {
  SmallVector<StringRef, 4> Lines;
  Msg.trim().split(Lines, '\n');
  bool First = true;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.consume_front(Prog))
      L = L.ltrim(": ");
    if (L.empty())
      continue;
    errs() << "sonde-rewrite: " << (First ? "error: " : "note: ") << L << "\n";
    First = false;
  }
}

/// Reports the probes that `M` says matched nothing (in `Where`, if not
/// empty), at the spec's lines: warnings, or errors with --strict.
int reportUnmatchedProbes(const Spec &S, const MatchSummary &M,
                          StringRef Where) {
  int Exit = ExitOk;
  for (const UnmatchedProbe &U : unmatchedProbes(S, M)) {
    S.diag(U.P->AtLoc, Strict ? SourceMgr::DK_Error : SourceMgr::DK_Warning,
           unmatchedMessage(U, Where), U.P->At.size())
        .print(nullptr, errs(), false);
    if (Strict)
      Exit = ExitSpec;
  }
  return Exit;
}

/// --report-unmatched: the probes that matched nothing in any of the
/// sources listed in the file `ListFile` (one per line: a build's whole
/// target), going by their summaries in `Dir`; once each, at the spec's
/// line, with the nearest name that exists. A source without a summary (its
/// object came from a compiler cache, or it failed) makes the report
/// impossible: that is said instead.
int reportUnmatched(const Spec &S, StringRef Dir, StringRef ListFile) {
  auto List = MemoryBuffer::getFile(ListFile, /*IsText=*/true);
  if (!List) {
    errs() << "sonde-rewrite: error: cannot read '" << ListFile
           << "': " << List.getError().message() << "\n";
    return ExitSource;
  }
  SmallVector<StringRef, 16> Sources;
  (*List)->getBuffer().split(Sources, '\n', -1, /*KeepEmpty=*/false);
  MatchSummary All;
  std::vector<StringRef> Missing;
  for (StringRef Src : Sources) {
    Expected<std::optional<MatchSummary>> M =
        readMatchSummary(S, matchSummaryPath(Dir, Src));
    if (!M) {
      errs() << "sonde-rewrite: error: " << toString(M.takeError()) << "\n";
      return ExitSource;
    }
    if (!*M) {
      Missing.push_back(Src);
      continue;
    }
    if (Error E = All.merge(**M)) {
      errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
      return ExitSource;
    }
  }
  if (!Missing.empty()) {
    errs() << "sonde-rewrite: " << (Strict ? "error" : "warning")
           << ": probes that match nothing in " << ReportUnmatched
           << " are not checked: no match summary of "
           << "this spec for " << join(Missing, ", ")
           << " (an object served by a compiler cache has none; a clean "
              "build writes them)\n";
    return Strict ? ExitSpec : ExitOk;
  }
  return reportUnmatchedProbes(S, All, ReportUnmatched);
}

} // namespace

int main(int argc, const char **argv) {
  sys::PrintStackTraceOnErrorSignal(argv[0]);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "sonde-rewrite (sonde " << SONDE_VERSION
       << "), built with LLVM " LLVM_VERSION_STRING "\n";
  });
  auto Parser = CommonOptionsParser::create(argc, argv, Category, cl::OneOrMore,
                                            "sonde-rewrite: instrument C++ "
                                            "sources from a probe spec\n");
  if (!Parser) {
    printUsageError(toString(Parser.takeError()), sys::path::filename(argv[0]));
    return ExitSource;
  }
  if (SpecPath.empty()) {
    errs() << "sonde-rewrite: error: --spec probes.yaml is required\n";
    return ExitSource;
  }
  if (int(InPlace) + int(Diff) + int(OutDir.getNumOccurrences() > 0) > 1) {
    errs() << "sonde-rewrite: error: choose one of -o, --in-place and "
              "--diff\n";
    return ExitSource;
  }
  if (OutDir.getNumOccurrences() && OutDir.empty()) {
    errs() << "sonde-rewrite: error: -o needs a directory (or '-')\n";
    return ExitSource;
  }
  // `-o -`: the standard output, as without -o (never a directory '-').
  if (OutDir == "-")
    OutDir.clear();
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
  if (ReportUnmatched.getNumOccurrences()) {
    const std::vector<std::string> &Args = Parser->getSourcePathList();
    if (MatchDir.empty() || Args.size() != 1) {
      errs() << "sonde-rewrite: error: --report-unmatched WHAT needs "
                "--match-dir DIR and one file listing the sources\n";
      return ExitSource;
    }
    return reportUnmatched(*S, MatchDir, Args[0]);
  }

  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  CompilationDatabase &DB = Parser->getCompilations();
  std::vector<Result> Results(Sources.size());
  std::atomic<size_t> Next{0}, Done{0};
  bool Progress = Sources.size() > 1;
  auto Worker = [&] {
    while (true) {
      size_t I = Next++;
      if (I >= Sources.size())
        return;
      Result &R = Results[I];
      R.Path = Sources[I];
      auto Finish = [&] {
        size_t N = ++Done;
        std::lock_guard<std::mutex> Lock(ErrMutex);
        errs() << R.Diagnostics;
        if (Progress)
          errs() << "[" << N << "/" << Sources.size() << "] " << R.Path
                 << (R.failed() ? ": not instrumented" : "") << "\n";
      };
      // The source is read once, into memory (not mapped), and the parse
      // uses that copy: a file changed meanwhile (appended to during an
      // --in-place run) can neither crash the lexer nor differ from the
      // text the plan applies to.
      auto Text = MemoryBuffer::getFile(R.Path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/true,
                                        /*IsVolatile=*/true);
      if (!Text) {
        R.Diagnostics = "sonde-rewrite: error: cannot read '" + R.Path +
                        "': " + Text.getError().message() + "\n";
        R.SourceError = true;
        Finish();
        continue;
      }
      testHook("SONDE_REWRITE_TEST_AFTER_READ");
      // A physical file system per tool: its working directory is its own,
      // not the process's, so threads do not race on chdir.
      ClangTool Tool(DB, {R.Path}, std::make_shared<PCHContainerOperations>(),
                     llvm::vfs::createPhysicalFileSystem());
      SmallString<256> Abs(R.Path);
      sys::fs::make_absolute(Abs);
      Tool.mapVirtualFile(Abs, (*Text)->getBuffer());
      Tool.appendArgumentsAdjuster(commonAdjuster());
      std::string Rendered;
      raw_string_ostream DiagOS(Rendered);
      // The printer keeps a reference count on its options.
      TextDiagnosticPrinter Printer(DiagOS, new DiagnosticOptions());
      Tool.setDiagnosticConsumer(&Printer);
      frontdoor::PlanRequest Req;
      Req.FileName = R.Path;
      Req.Log = &DiagOS;
      Req.OnPlan = [&R](CompilerInstance &CI, Plan &P) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        unsigned ErrorsBefore = D.getNumErrors();
        reportSourceNotes(D, P.Notes, Strict);
        if (D.getNumErrors() > ErrorsBefore)
          R.StrictError = true;
        for (const SourceNote &N : P.Notes)
          R.SpecConflict |= N.Flag == "sonde-conflict";
      };
      frontdoor::PlanResult Planned;
      PlanActionFactory Factory(*S, std::move(Req), Planned);
      // The compiler's messages say what failed; not "Error while
      // processing".
      Tool.setPrintErrorMessage(false);
      int RC = Tool.run(&Factory);
      R.SourceError = Planned.SourceErrors;
      R.Original = std::move(Planned.Original);
      R.P = std::move(Planned.P);
      if (!Planned.Error.empty()) {
        R.Diagnostics += "sonde-rewrite: error: " + Planned.Error + "\n";
        R.SourceError = true;
      }
      if (RC != 0 && !R.P)
        R.SourceError = true;
      DiagOS.flush();
      R.Diagnostics = Rendered + R.Diagnostics;
      if (R.P && !R.SourceError) {
        R.Rewritten = applyEdits(R.Original, *R.P);
        verifyRewritten(DB, *S, R, R.Rewritten);
      }
      Finish();
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
  MatchSummary Matches;
  for (const Result &R : Results) {
    AllParsed &= R.P.has_value();
    if (R.P)
      Matches.add(*R.P);
  }
  if (AllParsed && (Strict || !QuietUnmatched) &&
      reportUnmatchedProbes(*S, Matches, "") == ExitSpec)
    Exit = ExitSpec;
  // The build's per-target report reads these (--report-unmatched).
  if (!MatchDir.empty())
    for (const Result &R : Results) {
      if (!R.P)
        continue;
      if (Error E = writeMatchSummary(*S, *R.P, MatchDir, R.Path)) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
    }
  for (const Result &R : Results)
    if (R.SpecConflict)
      Exit = ExitSpec;
  // A batch is written whole or not at all: say so, and which files failed.
  bool Writes = InPlace || !OutDir.empty();
  auto NothingWritten = [&](StringRef Why) {
    if (!Writes || Sources.size() < 2)
      return;
    errs() << "sonde-rewrite: error: nothing written (" << Why
           << "; a batch is written whole or not at all): ";
    ListSeparator LS;
    for (const Result &R : Results)
      errs() << LS << R.Path;
    errs() << (InPlace ? " left unchanged" : " not written") << "\n";
  };
  if (Exit == ExitSpec) {
    NothingWritten("errors in the spec");
    return ExitSpec;
  }
  std::vector<StringRef> Failed;
  for (const Result &R : Results)
    if (R.failed())
      Failed.push_back(R.Path);
  if (!Failed.empty()) {
    std::string Why;
    raw_string_ostream OS(Why);
    OS << Failed.size() << " of " << Sources.size()
       << " sources could not be instrumented: ";
    ListSeparator LS;
    for (StringRef F : Failed)
      OS << LS << F;
    OS.flush();
    NothingWritten(Why);
    return ExitSource;
  }

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

  if (Writes)
    testHook("SONDE_REWRITE_TEST_BEFORE_WRITE");
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
