//===- Sites.cpp - Probe sites and their descriptors ----------------------===//
//
// PlanBuilder::addSite: a site's stable id (a hash of facts that survive
// unrelated edits), the check that two probes do not record the same event at
// one place, its PlanSite, and its entry in its function's site table (one
// `sonde::SiteTable` declared at the start of the function). Also what inserted
// code attaches to a site: its run-time guard (context frames, `when`, `every`)
// and the descriptors of context frames.
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"
#include "SiteDescriptor.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

std::string quote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n' || C == '\r')
      continue;
    Out += C;
  }
  return Out + "\"";
}

/// The part of a path that ids hash: its last two components, the same
/// wherever the checkout lives.
static std::string idPath(StringRef File) {
  size_t Slash = File.rfind('/');
  if (Slash == StringRef::npos || Slash == 0)
    return File.str();
  size_t Before = File.rfind('/', Slash - 1);
  return Before == StringRef::npos ? File.str() : File.substr(Before + 1).str();
}

uint64_t stableHash(StringRef S) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : S) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

SiteRef PlanBuilder::addSite(const Probe &Pr, const HostFunction &F,
                             StringRef Kind, StringRef Name, StringRef Detail,
                             SourceLocation At, StringRef Watched,
                             StringRef Type, StringRef ArgNames) {
  // The id hashes facts that survive unrelated edits: file, function,
  // selector, what the site is about and its ordinal among the same.
  std::string Key = idPath(P.File) + "|" + F.QualifiedName + "|" + Pr.At + "|" +
                    (Pr.Sec == Section::Probes ? "p" : "w") + "|" + Kind.str() +
                    "|" + Detail.str();
  unsigned Ordinal = Ordinals[Key]++;
  uint64_t Id = stableHash(Key + "|" + std::to_string(Ordinal));
  SiteRef R;
  R.Tag = utohexstr(Id & 0xffffffffu, /*LowerCase=*/true);
  while (R.Tag.size() < 8)
    R.Tag = "0" + R.Tag;
  R.Id = Id;

  // Two probes recording the same event at the same place: every hit
  // would be counted twice, and no reader could tell the records apart.
  auto Owner = SiteOwners.try_emplace({SM.getExpansionLoc(At).getRawEncoding(),
                                       Kind.str(), Name.str(), Watched.str()},
                                      Pr.Index);
  if (!Owner.second && Owner.first->second != Pr.Index) {
    const Probe &First = S.Probes[Owner.first->second];
    note(At, SourceNote::Error,
         "probes on lines " + Twine(First.AtLoc.Line) + " and " +
             Twine(Pr.AtLoc.Line) + " of " + S.Path + " both record " + Kind +
             " '" + Name + "' here; remove one, or give one a 'name:'",
         "sonde-conflict");
  }

  PlanSite Site;
  Site.Id = Id;
  Site.Kind = Kind.str();
  Site.Category = Pr.category();
  Site.Name = Name.str();
  Site.File = P.File;
  Site.Line = line(At);
  Site.Function = F.QualifiedName;
  Site.Watched = Watched.str();
  Site.Args = ArgNames.str();
  Site.Type = Type.str();
  Site.ProbeIndex = Pr.Index;
  Site.Selector = Pr.At;
  std::optional<SiteKind> SK = siteKindOf(Kind);
  if (!SK)
    report_fatal_error("sonde: a site of kind '" + Kind +
                       "', which sonde/site.h does not define");
  Site.Flags = siteFlags(Pr, *SK, !ArgNames.empty());
  ++P.MatchCounts[Pr.Index];

  // The function's sites share one table, named after its first site.
  SiteTableText &T = SiteTables[F.FD];
  if (T.Var.empty()) {
    T.Var = "sonde_sites_" + R.Tag;
    T.File = Site.File;
    T.Function = Site.Function;
  }
  if (Site.File != T.File || Site.Function != T.Function)
    report_fatal_error("sonde: the sites of one function name two files or "
                       "functions ('" +
                       Twine(T.Function) + "', '" + Site.Function + "')");
  R.Table = T.Var;
  R.Index = T.Count++;
  R.Var = T.Var + "[" + std::to_string(R.Index) + "]";
  T.Entries += siteTableEntry(Site);
  P.Sites.push_back(std::move(Site));
  return R;
}

std::string PlanBuilder::everyCounter(const HostFunction &F, const SiteRef &R) {
  std::string Var = "sonde_every_" + R.Tag;
  SiteDecls[F.FD] += " static thread_local ::std::uint32_t " + Var + " = 0;";
  return Var;
}

Code PlanBuilder::guard(const Probe &Pr, const HostFunction &F,
                        const SiteRef &R) {
  Code G;
  auto And = [&G] {
    if (!G.empty())
      G += " && ";
  };
  for (const FuncGlob &C : Pr.Q.Context) {
    And();
    G += "::sonde::inFrame(" + frameVar(C) + ")";
  }
  if (!Pr.When.empty()) {
    And();
    G += "(";
    G.spec(Pr.When, Pr.WhenLoc);
    G += ")";
  }
  if (Pr.Every > 1) {
    And();
    G += "::sonde::every(" + everyCounter(F, R) + ", " +
         std::to_string(Pr.Every) + ")";
  }
  return G;
}

std::string PlanBuilder::frameVar(const FuncGlob &G) {
  uint64_t Id = stableHash("frame|" + G.FileGlob + "|" + G.Glob);
  std::string Var = "frame_" + utohexstr(Id, true);
  if (!Frames.count(Var)) {
    PlanSite Frame;
    Frame.Kind = "frame";
    Frame.Name = G.Glob;
    Frame.Function = G.Glob;
    Frame.Id = Id;
    Frames[Var] = siteDeclaration("inline", Var, Frame);
  }
  return "::sonde_ctx::" + Var;
}

} // namespace rewriter
} // namespace sonde
