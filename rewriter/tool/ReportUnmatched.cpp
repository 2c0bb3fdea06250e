//===- tool/ReportUnmatched.cpp - Probes that match nothing ---------------===//
//
// Printing the probes that match nothing: see ReportUnmatched.h.
//
//===----------------------------------------------------------------------===//

#include "ReportUnmatched.h"

#include "ExitCode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

using namespace llvm;
using namespace sonde::rewriter;

namespace sonde {
namespace rewrite {

int reportUnmatchedProbes(const Spec &S, const MatchSummary &M, StringRef Where,
                          bool Strict) {
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

int reportUnmatched(const Spec &S, StringRef Dir, StringRef ListFile,
                    StringRef What, bool Strict) {
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
           << ": probes that match nothing in " << What
           << " are not checked: no match summary of "
           << "this spec for " << join(Missing, ", ")
           << " (an object served by a compiler cache has none; a clean "
              "build writes them)\n";
    return Strict ? ExitSpec : ExitOk;
  }
  return reportUnmatchedProbes(S, All, What, Strict);
}

} // namespace rewrite
} // namespace sonde
