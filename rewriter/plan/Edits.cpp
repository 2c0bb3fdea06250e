//===- Edits.cpp - Applying a plan ----------------------------------------===//

#include "sonde/rewriter/Edits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

std::string applyEdits(StringRef Buffer, const Plan &P) {
  std::string Out;
  size_t Extra = 0;
  for (const Insertion &I : P.Insertions)
    Extra += I.Text.size();
  Out.reserve(Buffer.size() + Extra);
  size_t Pos = 0;
  // Insertions are sorted by offset, so one pass suffices.
  for (const Insertion &I : P.Insertions) {
    size_t Off = std::min<size_t>(I.Offset, Buffer.size());
    if (Off > Pos) {
      Out.append(Buffer.data() + Pos, Off - Pos);
      Pos = Off;
    }
    Out += I.Text;
  }
  Out.append(Buffer.data() + Pos, Buffer.size() - Pos);
  return Out;
}

static void splitKeepingCount(StringRef Text,
                              SmallVectorImpl<StringRef> &Lines) {
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
}

Error checkInsertionsOnly(StringRef Original, StringRef Rewritten) {
  SmallVector<StringRef, 0> A, B;
  splitKeepingCount(Original, A);
  splitKeepingCount(Rewritten, B);
  if (A.size() != B.size())
    return createStringError(inconvertibleErrorCode(),
                             "line count changed: %zu lines became %zu",
                             A.size(), B.size());
  for (size_t L = 0; L < A.size(); ++L) {
    StringRef Old = A[L], New = B[L];
    size_t J = 0;
    for (char C : Old) {
      while (J < New.size() && New[J] != C)
        ++J;
      if (J == New.size())
        return createStringError(
            inconvertibleErrorCode(),
            "line %zu is not a subsequence of its rewritten line", L + 1);
      ++J;
    }
  }
  return Error::success();
}

std::string unifiedDiff(StringRef OldName, StringRef NewName, StringRef Old,
                        StringRef New) {
  SmallVector<StringRef, 0> A, B;
  splitKeepingCount(Old, A);
  splitKeepingCount(New, B);
  std::string Out;
  raw_string_ostream OS(Out);
  if (A.size() != B.size()) {
    // Not an insertion-only rewrite: show it whole.
    OS << "--- " << OldName << "\n+++ " << NewName << "\n@@ -1," << A.size()
       << " +1," << B.size() << " @@\n";
    for (StringRef L : A)
      OS << "-" << L << "\n";
    for (StringRef L : B)
      OS << "+" << L << "\n";
    return Out;
  }
  bool Header = false;
  size_t N = A.size();
  size_t L = 0;
  while (L < N) {
    if (A[L] == B[L]) {
      ++L;
      continue;
    }
    // A hunk: changed lines with one line of context on each side, merging
    // changes separated by at most two equal lines.
    size_t Begin = L > 0 ? L - 1 : 0;
    size_t End = L;
    while (End < N) {
      if (A[End] != B[End]) {
        ++End;
        continue;
      }
      size_t Next = End;
      while (Next < N && Next < End + 3 && A[Next] == B[Next])
        ++Next;
      if (Next < N && Next < End + 3)
        End = Next;
      else
        break;
    }
    size_t Stop = std::min(N, End + 1);
    if (!Header) {
      OS << "--- " << OldName << "\n+++ " << NewName << "\n";
      Header = true;
    }
    OS << "@@ -" << Begin + 1 << "," << Stop - Begin << " +" << Begin + 1 << ","
       << Stop - Begin << " @@\n";
    for (size_t I = Begin; I < Stop; ++I) {
      if (A[I] == B[I]) {
        OS << " " << A[I] << "\n";
      } else {
        OS << "-" << A[I] << "\n";
        OS << "+" << B[I] << "\n";
      }
    }
    L = Stop;
  }
  return Out;
}

} // namespace rewriter
} // namespace sonde
