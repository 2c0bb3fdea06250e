//===- SiteDescriptor.cpp - The inserted sonde::Site declarations ---------===//
//
// The one place where the engine meets the site protocol of sonde/site.h:
// which SiteKind a plan kind is, which flag bits a probe sets, and the text
// of the `sonde::Site` constructor call. The plan keeps the numbers (the
// `flags` of `--list-sites --format json`); the inserted text names them.
//
//===----------------------------------------------------------------------===//

#include "SiteDescriptor.h"
#include "PlanBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>

using namespace llvm;

namespace sonde {
namespace rewriter {

static_assert(std::is_same_v<SummaryKind, Summary>,
              "the spec's summary is the runtime's");

std::optional<SiteKind> siteKindOf(StringRef PlanKind) {
  for (SiteKind K :
       {SiteKind::Region, SiteKind::Instant, SiteKind::Watch, SiteKind::Loop,
        SiteKind::Frame, SiteKind::State, SiteKind::Api})
    if (StringRef(siteKindName(K)).lower() == PlanKind)
      return K;
  return std::nullopt;
}

uint8_t siteFlags(const Probe &Pr, SiteKind Kind, bool HasArgNames) {
  unsigned Flags = 0;
  if (!Pr.Enabled)
    Flags |= OffByDefault;
  if (Pr.Mode == ModeKind::Instant && Kind == SiteKind::Region)
    Flags |= InstantMode;
  // A point event's args are pushed just around it, so marking them as
  // context gives them to that one record and nothing else.
  bool Point = Kind == SiteKind::Watch || Kind == SiteKind::Instant;
  // An api site's arg names are its callee's parameters, not pushed values.
  if (HasArgNames && Kind != SiteKind::Api && (Pr.contextArgs() || Point))
    Flags |= ContextArgs;
  Flags |= summaryFlags(Pr.Summary);
  if (Pr.CheckFinite && Kind == SiteKind::Watch)
    Flags |= CheckFinite;
  return uint8_t(Flags);
}

std::string spellSiteFlags(uint8_t Flags) {
  assert((Flags & ~(OffByDefault | InstantMode | ContextArgs | CheckFinite |
                    SummaryMask)) == 0 &&
         "a flag bit sonde/site.h does not name");
  std::string Out;
  auto Add = [&Out](StringRef Name) {
    if (!Out.empty())
      Out += " | ";
    Out += Name;
  };
  if (Flags & OffByDefault)
    Add("::sonde::OffByDefault");
  if (Flags & InstantMode)
    Add("::sonde::InstantMode");
  if (Flags & ContextArgs)
    Add("::sonde::ContextArgs");
  if (Flags & CheckFinite)
    Add("::sonde::CheckFinite");
  Summary S = summaryOfFlags(Flags);
  if (S != Summary::Default)
    Add(std::string("::sonde::summaryFlags(::sonde::Summary::") +
        summaryName(S) + ")");
  return Out.empty() ? "{}" : Out;
}

std::string siteDeclaration(StringRef Storage, StringRef Var,
                            const PlanSite &S) {
  std::optional<SiteKind> Kind = siteKindOf(S.Kind);
  if (!Kind)
    report_fatal_error("sonde: a site of kind '" + Twine(S.Kind) +
                       "', which sonde/site.h does not define");
  // sonde::Site(Kind, Category, Name, File, Line, Function, StableId = 0,
  //             Flags = 0, Args = "", Type = "").
  std::string Out = Storage.str() + " ::sonde::Site " + Var.str() +
                    "(::sonde::SiteKind::" + siteKindName(*Kind) + ", " +
                    quote(S.Category) + ", " + quote(S.Name) + ", " +
                    quote(S.File) + ", " + std::to_string(S.Line) + ", " +
                    quote(S.Function) + ", 0x" + utohexstr(S.Id, true) + "ull";
  bool HasType = !S.Type.empty(), HasArgs = !S.Args.empty() || HasType;
  if (S.Flags || HasArgs)
    Out += ", " + spellSiteFlags(uint8_t(S.Flags));
  if (HasArgs)
    Out += ", " + quote(S.Args);
  if (HasType)
    Out += ", " + quote(S.Type);
  return Out + ");";
}

/// `Fields`, each ended by a newline (TableSeparator). A newline inside a
/// field is dropped, as quote() drops it: names never span lines.
template <size_t N>
static std::string joinFields(const std::array<std::string, N> &Fields) {
  std::string Out;
  for (const std::string &F : Fields) {
    for (char C : F)
      if (C != TableSeparator && C != '\r')
        Out += C;
    Out += TableSeparator;
  }
  return Out;
}

std::string siteTableEntry(const PlanSite &S) {
  std::optional<SiteKind> Kind = siteKindOf(S.Kind);
  if (!Kind)
    report_fatal_error("sonde: a site of kind '" + Twine(S.Kind) +
                       "', which sonde/site.h does not define");
  std::array<std::string, size_t(TableField::Fields)> F;
  F[size_t(TableField::Kind)] = std::to_string(unsigned(*Kind));
  F[size_t(TableField::Flags)] = std::to_string(unsigned(uint8_t(S.Flags)));
  F[size_t(TableField::Line)] = std::to_string(S.Line);
  F[size_t(TableField::StableId)] = utohexstr(S.Id, /*LowerCase=*/true);
  F[size_t(TableField::Category)] = S.Category;
  F[size_t(TableField::Name)] = S.Name;
  F[size_t(TableField::Args)] = S.Args;
  F[size_t(TableField::Type)] = S.Type;
  return joinFields(F);
}

std::string siteTableDeclaration(StringRef Var, unsigned Count, StringRef File,
                                 StringRef Function, StringRef Entries) {
  std::array<std::string, size_t(TableHeader::Fields)> H;
  H[size_t(TableHeader::Version)] = std::to_string(SiteTableVersion);
  H[size_t(TableHeader::Count)] = std::to_string(Count);
  H[size_t(TableHeader::File)] = File.str();
  H[size_t(TableHeader::Function)] = Function.str();
  std::string Raw = joinFields(H) + Entries.str();
  // One literal; the separator is spelled `\n`, so the insertion itself
  // never holds a newline (line numbers stay).
  static_assert(TableSeparator == '\n', "spelled as \\n below");
  std::string Lit = "\"";
  for (char C : Raw) {
    if (C == TableSeparator) {
      Lit += "\\n";
      continue;
    }
    if (C == '"' || C == '\\')
      Lit += '\\';
    Lit += C;
  }
  Lit += '"';
  return "static ::sonde::SiteTable " + Var.str() + "(" + Lit + ");";
}

} // namespace rewriter
} // namespace sonde
