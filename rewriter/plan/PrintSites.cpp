//===- PrintSites.cpp - The plan as text and as JSON ----------------------===//
//
// What `sonde-rewrite --list-sites` prints: one line per site, or
// (`--format json`) an array of objects. Tests and tools read both, so their
// form is stable.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Plan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

void Plan::printSites(raw_ostream &OS) const {
  if (RuntimeHeaders.size() > 1) {
    OS << "# headers:";
    for (const std::string &H : RuntimeHeaders)
      OS << " " << H;
    OS << "\n";
  }
  for (const PlanSite &S : Sites) {
    OS << format_hex_no_prefix(S.Id, 16) << " " << S.Kind << " " << S.Category
       << " " << S.Name << " " << S.File << ":" << S.Line << " " << S.Function;
    if (!S.Watched.empty())
      OS << " " << S.Watched;
    if (!S.Type.empty())
      OS << " :" << S.Type;
    if (!S.Args.empty())
      OS << " args=" << S.Args;
    OS << "\n";
  }
}

void Plan::printSitesJson(raw_ostream &OS) const {
  json::Array A;
  for (const PlanSite &S : Sites) {
    json::Object O{{"id", utohexstr(S.Id, true)},
                   {"kind", S.Kind},
                   {"category", S.Category},
                   {"name", S.Name},
                   {"file", S.File},
                   {"line", int64_t(S.Line)},
                   {"function", S.Function},
                   {"watched", S.Watched},
                   {"type", S.Type},
                   {"args", S.Args},
                   {"flags", int64_t(S.Flags)},
                   {"probe", int64_t(S.ProbeIndex)},
                   {"at", S.Selector}};
    A.push_back(std::move(O));
  }
  OS << formatv("{0:2}", json::Value(std::move(A)));
}

} // namespace rewriter
} // namespace sonde
