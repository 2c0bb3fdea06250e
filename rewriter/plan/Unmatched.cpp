//===- Unmatched.cpp - Probes that match nothing --------------------------===//

#include "sonde/rewriter/Unmatched.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {
/// The side file's first line: its format and version.
constexpr StringLiteral Magic = "sonde-match-summary 1";
constexpr StringLiteral Suffix = ".sonde-matches";
} // namespace

std::string specFingerprint(const Spec &S) {
  std::string All;
  for (const Probe &Pr : S.Probes)
    All += std::to_string(int(Pr.Sec)) + " " + Pr.At + "\n";
  return utohexstr(xxh3_64bits(All), /*LowerCase=*/true);
}

std::string matchSummaryPath(StringRef Dir, StringRef Source) {
  SmallString<256> Abs(Source);
  // Without a current directory the path stays as given.
  (void)sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> P(Dir);
  sys::path::append(P, sys::path::filename(Source).str() + "." +
                           utohexstr(xxh3_64bits(Abs.str()), true) + Suffix);
  return P.str().str();
}

Error writeMatchSummary(const Spec &S, const Plan &P, StringRef Dir,
                        StringRef Source) {
  MatchSummary M;
  M.Spec = specFingerprint(S);
  M.add(P);
  std::string Path = matchSummaryPath(Dir, Source);
  auto Fail = [](std::error_code EC, StringRef What, StringRef File) {
    return createStringError(EC, "cannot %s '%s': %s", What.str().c_str(),
                             File.str().c_str(), EC.message().c_str());
  };
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return Fail(EC, "create", Dir);
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp))
    return Fail(EC, "write", Path);
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  M.write(OS);
  OS.close();
  std::error_code EC = OS.error();
  OS.clear_error();
  if (!EC)
    EC = sys::fs::rename(Tmp, Path);
  if (EC) {
    (void)sys::fs::remove(Tmp); // best effort: the error below is the news
    return Fail(EC, "write", Path);
  }
  return Error::success();
}

Expected<std::optional<MatchSummary>> readMatchSummary(const Spec &S,
                                                       StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf && Buf.getError() == std::errc::no_such_file_or_directory)
    return std::nullopt;
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  Expected<MatchSummary> M = MatchSummary::parse((*Buf)->getBuffer(), Path);
  if (!M)
    return M.takeError();
  if (M->Spec != specFingerprint(S))
    return std::nullopt;
  return std::move(*M);
}

/// Adds `Counts` to the counts of `M`, and `More` to its names.
static void addTo(MatchSummary &M, ArrayRef<unsigned> Counts,
                  ArrayRef<std::string> More) {
  if (M.MatchCounts.size() < Counts.size())
    M.MatchCounts.resize(Counts.size());
  for (size_t I = 0; I < Counts.size(); ++I)
    M.MatchCounts[I] += Counts[I];
  M.Names.insert(M.Names.end(), More.begin(), More.end());
  llvm::sort(M.Names);
  M.Names.erase(std::unique(M.Names.begin(), M.Names.end()), M.Names.end());
}

void MatchSummary::add(const Plan &P) {
  addTo(*this, P.MatchCounts, P.HostNames);
}

Error MatchSummary::merge(const MatchSummary &Other) {
  if (!MatchCounts.empty() && !Other.MatchCounts.empty() &&
      MatchCounts.size() != Other.MatchCounts.size())
    return createStringError(inconvertibleErrorCode(),
                             "match summaries of different specs (%zu and %zu "
                             "probes)",
                             MatchCounts.size(), Other.MatchCounts.size());
  addTo(*this, Other.MatchCounts, Other.Names);
  return Error::success();
}

void MatchSummary::write(raw_ostream &OS) const {
  OS << Magic << "\n";
  OS << "spec " << Spec << "\n";
  OS << "counts";
  for (unsigned C : MatchCounts)
    OS << " " << C;
  OS << "\n";
  for (const std::string &N : Names)
    if (!StringRef(N).contains('\n'))
      OS << "name " << N << "\n";
}

Expected<MatchSummary> MatchSummary::parse(StringRef Text, StringRef Path) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Path.str().c_str(), Why.str().c_str());
  };
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines[0] != Magic)
    return Bad("not a sonde match summary (it does not start with '" + Magic +
               "')");
  MatchSummary M;
  bool Counts = false;
  for (StringRef L : ArrayRef(Lines).drop_front()) {
    if (L.consume_front("name ")) {
      M.Names.push_back(L.str());
    } else if (L.consume_front("spec ")) {
      M.Spec = L.str();
    } else if (L.consume_front("counts")) {
      SmallVector<StringRef, 16> Fields;
      L.split(Fields, ' ', -1, /*KeepEmpty=*/false);
      for (StringRef F : Fields) {
        unsigned C;
        if (F.getAsInteger(10, C))
          return Bad("bad count '" + F + "'");
        M.MatchCounts.push_back(C);
      }
      Counts = true;
    } else {
      return Bad("unknown line '" + L + "'");
    }
  }
  if (!Counts)
    return Bad("no 'counts' line");
  llvm::sort(M.Names);
  M.Names.erase(std::unique(M.Names.begin(), M.Names.end()), M.Names.end());
  return M;
}

std::string nearestFunction(StringRef Glob,
                            const std::vector<std::string> &Names) {
  if (Glob.empty() || Glob.find_first_of("*?[") != StringRef::npos)
    return "";
  SmallVector<StringRef, 4> Parts;
  Glob.split(Parts, "::");
  // What the glob may have meant: itself, and with `Impl` after one of its
  // scopes (TORCH_MODULE(Net) defines NetImpl).
  std::vector<std::string> Variants{Glob.str()};
  for (size_t I = 0; I + 1 < Parts.size(); ++I) {
    SmallVector<std::string, 4> P(Parts.begin(), Parts.end());
    P[I] += "Impl";
    Variants.push_back(join(P, "::"));
  }
  std::string Best;
  unsigned BestDist = ~0u;
  for (const std::string &Name : Names) {
    // Compare with as many trailing components of the name as the glob
    // has: `Net::forwrd` with `NetImpl::forward` of `app::NetImpl::forward`.
    SmallVector<StringRef, 4> NP;
    StringRef(Name).split(NP, "::");
    if (NP.size() < Parts.size())
      continue;
    std::string Tail = join(ArrayRef(NP).take_back(Parts.size()), "::");
    for (const std::string &V : Variants) {
      unsigned Limit = std::max<unsigned>(2, V.size() / 4);
      unsigned D = StringRef(V).edit_distance(Tail, true, Limit + 1);
      if (V != Glob)
        D += 1; // the Impl variant costs one edit
      if (D <= Limit + (V != Glob) && D < BestDist) {
        BestDist = D;
        Best = Tail;
      }
    }
  }
  return Best;
}

std::vector<UnmatchedProbe> unmatchedProbes(const Spec &S,
                                            const MatchSummary &M) {
  std::vector<UnmatchedProbe> Out;
  for (const Probe &Pr : S.Probes) {
    if (Pr.Index < M.MatchCounts.size() && M.MatchCounts[Pr.Index])
      continue;
    UnmatchedProbe U;
    U.P = &Pr;
    // The function globs that name nothing that exists: the likely typo.
    std::vector<const FuncGlob *> Globs;
    Globs.reserve(Pr.Q.Context.size() + 1);
    for (const FuncGlob &G : Pr.Q.Context)
      Globs.push_back(&G);
    Globs.push_back(&Pr.Q.Host);
    for (const FuncGlob *G : Globs) {
      if (llvm::any_of(M.Names,
                       [&](const std::string &N) { return G->matches(N); }))
        continue;
      U.Suggestion = nearestFunction(G->Glob, M.Names);
      if (!U.Suggestion.empty()) {
        // The whole selector, with the glob replaced.
        std::string Fixed = Pr.At;
        size_t At = StringRef(Fixed).find(G->Glob);
        if (At != std::string::npos)
          Fixed.replace(At, G->Glob.size(), U.Suggestion);
        U.Suggestion = Fixed;
        break;
      }
    }
    Out.push_back(std::move(U));
  }
  return Out;
}

std::string unmatchedMessage(const UnmatchedProbe &U, StringRef Where) {
  std::string Msg = "selector '" + U.P->At + "' matches nothing";
  if (!Where.empty())
    Msg += " in " + Where.str();
  if (!U.Suggestion.empty())
    Msg += "; did you mean '" + U.Suggestion + "'?";
  return Msg;
}

} // namespace rewriter
} // namespace sonde
