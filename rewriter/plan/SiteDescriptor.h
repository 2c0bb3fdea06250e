//===- SiteDescriptor.h - The inserted sonde::Site declarations -*- C++ -*-===//
//
// How a plan site becomes what inserted code declares for it: its entry in
// its function's site table (`sonde::SiteTable`), or, for a context frame,
// a `sonde::Site` of its own. Every number of that protocol comes from
// sonde/site.h (the runtime's protocol header): a frame's descriptor spells
// it by name (`::sonde::SiteKind::Frame`), a table holds the numbers after
// SiteTableVersion, which libsonde checks, so a renumbering there moves the
// engine, the recorder and the reader together.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_PLAN_SITEDESCRIPTOR_H
#define SONDE_REWRITER_PLAN_SITEDESCRIPTOR_H

#include "sonde/rewriter/Plan.h"
#include "sonde/rewriter/Spec.h"
#include "sonde/site.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sonde {
namespace rewriter {

/// The SiteKind of plan kind `PlanKind` (`region` for SiteKind::Region: the
/// lower-case name of the enumerator), or none.
std::optional<SiteKind> siteKindOf(llvm::StringRef PlanKind);

/// The flag bits of a site of kind `Kind` made by probe `Pr`, which records
/// the args `HasArgNames` says: OffByDefault, InstantMode, ContextArgs and
/// the summary it asks for.
uint8_t siteFlags(const Probe &Pr, SiteKind Kind, bool HasArgNames);

/// `Flags` as inserted code spells them: the names of sonde/site.h joined
/// by ` | ` (`::sonde::OffByDefault | ::sonde::ContextArgs`), `{}` for none.
std::string spellSiteFlags(uint8_t Flags);

/// The declaration of site `S`'s descriptor, variable `Var`, in `Storage`
/// (`static` in a function body, `inline` at namespace scope):
/// `static ::sonde::Site Var(::sonde::SiteKind::Region, "category", "name",
/// "file", line, "function", 0x<id>ull[, flags[, "args"[, "type"]]]);`,
/// trailing arguments left out where they are the constructor's defaults.
/// The arguments follow sonde::Site's constructor (sonde/sonde.h).
std::string siteDeclaration(llvm::StringRef Storage, llvm::StringRef Var,
                            const PlanSite &S);

/// Site `S`'s fields in its function's site table (sonde::SiteTable): the
/// raw text, every field ended by TableSeparator, in sonde/site.h's
/// TableField order.
std::string siteTableEntry(const PlanSite &S);

/// The declaration of a function's site table, variable `Var`: `static
/// ::sonde::SiteTable Var("...");`, the literal holding the TableHeader
/// fields (`Count` sites, `File`, `Function`) and then `Entries`, the
/// concatenated siteTableEntry() of the sites in index order.
std::string siteTableDeclaration(llvm::StringRef Var, unsigned Count,
                                 llvm::StringRef File, llvm::StringRef Function,
                                 llvm::StringRef Entries);

} // namespace rewriter
} // namespace sonde

#endif
