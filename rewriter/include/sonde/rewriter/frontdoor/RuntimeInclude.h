//===- sonde/rewriter/frontdoor/RuntimeInclude.h - Find sonde.h -*- C++ -*-===//
//
// Where the runtime headers (sonde/sonde.h and the ones Plan::RuntimeHeaders
// names beside it) are, for a front door that compiles instrumented text:
// next to the front door once installed, else in the source tree it was
// built from. The install layout is known here only (the relative paths are
// computed by CMake from the install directories).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_FRONTDOOR_RUNTIMEINCLUDE_H
#define SONDE_REWRITER_FRONTDOOR_RUNTIMEINCLUDE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace sonde {
namespace frontdoor {

/// Where a front door is installed.
enum class InstalledIn {
  BinDir,   ///< <prefix>/<bindir>: sonde-rewrite
  PluginDir ///< <prefix>/<libdir>/sonde: the plugin
};

/// Whether the directory `Dir` holds sonde/sonde.h.
bool hasRuntimeHeader(llvm::StringRef Dir);

/// `Dir`/sonde/sonde.h, its dots removed.
std::string runtimeHeaderIn(llvm::StringRef Dir);

/// The directory holding sonde/sonde.h when no option names one: the
/// installed include directory relative to `Binary` (the absolute path of
/// the sonde-rewrite executable or of the plugin; may be empty), else the
/// source tree this was built from. Empty if neither has the header.
std::string findRuntimeInclude(llvm::StringRef Binary, InstalledIn Where);

/// The path of the runtime header `Name` (one of Plan::RuntimeHeaders)
/// under the include directory `Include`; empty if this install lacks it.
std::string runtimeHeaderPath(llvm::StringRef Include, llvm::StringRef Name);

} // namespace frontdoor
} // namespace sonde

#endif
