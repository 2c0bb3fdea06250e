//===- tool/SondeRewrite.cpp - sonde-rewrite: instrument sources ----------===//
//
// The LibTooling front door: arguments, the compilation database, the
// worker threads, and what the batch reports and writes. Everything about
// probes is decided by the engine (computePlan, run by the shared
// frontdoor::PlanAction); this tool only runs it and writes its results:
//
//   Instrument.cpp       one source: parse, plan, apply (CompileArgs.cpp:
//                        the build's flags; Verify.cpp: check the text)
//   ReportUnmatched.cpp  the probes that match nothing
//   Output.cpp           -o DIR and --in-place
//
//   sonde-rewrite --spec probes.yaml [-p BUILD_DIR] [options] SOURCE...
//                 [-- COMPILER_ARGS]
//
// Exit status: ExitCode.h.
//
//===----------------------------------------------------------------------===//

#include "ExitCode.h"
#include "Instrument.h"
#include "Options.h"
#include "Output.h"
#include "ReportUnmatched.h"

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"
#include "sonde/rewriter/Unmatched.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

using namespace clang::tooling;
using namespace llvm;
using namespace sonde;
using namespace sonde::rewrite;
using namespace sonde::rewriter;

#ifndef SONDE_VERSION
#define SONDE_VERSION "(unknown version)"
#endif

namespace {

/// Serializes what worker threads print.
std::mutex PrintMutex;

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

/// Instruments `Sources` on `Jobs` threads, each source once, printing
/// each one's messages (and, for more than one, the progress) as it ends.
std::vector<Result> instrumentAll(const CompilationDatabase &DB, const Spec &S,
                                  const InstrumentOptions &Opts,
                                  const std::vector<std::string> &Sources) {
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
        std::lock_guard<std::mutex> Lock(PrintMutex);
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
      instrumentSource(DB, S, Opts, (*Text)->getBuffer(), R, PrintMutex);
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

  return Results;
}

/// What the batch as a whole says about the spec, once all sources are
/// done: spec code that does not compile and spec mistakes a source shows
/// (once per spec position), probes that match nothing anywhere, the match
/// summaries for --report-unmatched, conflicts. Returns the exit code.
int reportBatch(const Spec &S, const std::vector<Result> &Results) {
  int Exit = ExitOk;
  // Spec code that does not compile is the spec's error.
  std::set<std::tuple<unsigned, unsigned, std::string>> Reported;
  for (const Result &R : Results)
    for (const auto &[L, Msg] : R.SpecErrors) {
      // One message per spec position, however many sites share the code.
      if (!Reported.insert({L.Line, L.Col, Msg}).second)
        continue;
      S.diag(L, SourceMgr::DK_Error, Msg, 1).print(nullptr, errs(), false);
      Exit = ExitSpec;
    }
  // Spec mistakes the source shows (a capture no matched function declares).
  for (const Result &R : Results)
    if (R.P)
      for (const SpecNote &N : R.P->SpecErrors) {
        if (!Reported.insert({N.Loc.Line, N.Loc.Col, N.Message}).second)
          continue;
        S.diag(N.Loc, SourceMgr::DK_Error, N.Message, N.Length)
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
      reportUnmatchedProbes(S, Matches, "", Strict) == ExitSpec)
    Exit = ExitSpec;
  // The build's per-target report reads these (--report-unmatched).
  if (!MatchDir.empty())
    for (const Result &R : Results) {
      if (!R.P)
        continue;
      if (Error E = writeMatchSummary(S, *R.P, MatchDir, R.Path)) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
    }
  for (const Result &R : Results)
    if (R.SpecConflict)
      Exit = ExitSpec;
  return Exit;
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
  if (int Exit = checkOptions())
    return Exit;
  InstrumentOptions Opts;
  Opts.Strict = Strict;
  Opts.Verify = Verify;
  Opts.NoVerify = NoVerify;
  Opts.IncludeDir = runtimeIncludeDir(argv[0]);
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
    return reportUnmatched(*S, MatchDir, Args[0], ReportUnmatched, Strict);
  }

  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  std::vector<Result> Results =
      instrumentAll(Parser->getCompilations(), *S, Opts, Sources);
  int Exit = reportBatch(*S, Results);
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
      // One array of every source's sites, built once by the plan's own
      // printer (not printed per source and parsed back).
      Plan All;
      for (const Result &R : Results)
        All.Sites.insert(All.Sites.end(), R.P->Sites.begin(), R.P->Sites.end());
      All.printSitesJson(outs());
      outs() << "\n";
    } else {
      for (const Result &R : Results)
        R.P->printSites(outs());
    }
    return ExitOk;
  }

  if (Writes)
    testHook("SONDE_REWRITE_TEST_BEFORE_WRITE");
  if (int WriteExit = writeResults(Results, {Diff, InPlace, OutDir}))
    Exit = WriteExit;
  return Exit;
}
