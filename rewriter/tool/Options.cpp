//===- tool/Options.cpp - sonde-rewrite's command line --------------------===//
//
// The options of sonde-rewrite and the checks of how they combine: see
// Options.h.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "ExitCode.h"

#include "sonde/rewriter/frontdoor/RuntimeInclude.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace sonde {
namespace rewrite {

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

std::string runtimeIncludeDir(const char *Argv0) {
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  static int Anchor;
  return frontdoor::findRuntimeInclude(
      sys::fs::getMainExecutable(Argv0, &Anchor),
      frontdoor::InstalledIn::BinDir);
}

int checkOptions() {
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
  return ExitOk;
}

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

} // namespace rewrite
} // namespace sonde
