//===- frontdoor/RuntimeInclude.cpp - Find sonde.h ------------------------===//
//
// Where the runtime headers are: see sonde/rewriter/frontdoor/
// RuntimeInclude.h. The three places come from CMake (rewriter/
// CMakeLists.txt): the source tree, and the include directory relative to
// the bin directory and to the plugin's directory of an install.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/frontdoor/RuntimeInclude.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#ifndef SONDE_RUNTIME_INCLUDE_SOURCE
#define SONDE_RUNTIME_INCLUDE_SOURCE ""
#endif
#ifndef SONDE_RUNTIME_INCLUDE_FROM_BINDIR
#define SONDE_RUNTIME_INCLUDE_FROM_BINDIR "../include"
#endif
#ifndef SONDE_RUNTIME_INCLUDE_FROM_PLUGINDIR
#define SONDE_RUNTIME_INCLUDE_FROM_PLUGINDIR "../../include"
#endif

using namespace llvm;

namespace sonde {
namespace frontdoor {

bool hasRuntimeHeader(StringRef Dir) {
  return !Dir.empty() && sys::fs::exists(runtimeHeaderIn(Dir));
}

std::string runtimeHeaderIn(StringRef Dir) {
  SmallString<256> P(Dir);
  sys::path::append(P, "sonde", "sonde.h");
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

std::string findRuntimeInclude(StringRef Binary, InstalledIn Where) {
  if (!Binary.empty()) {
    SmallString<256> Dir(Binary);
    sys::path::remove_filename(Dir);
    sys::path::append(Dir, Where == InstalledIn::BinDir
                               ? SONDE_RUNTIME_INCLUDE_FROM_BINDIR
                               : SONDE_RUNTIME_INCLUDE_FROM_PLUGINDIR);
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    if (hasRuntimeHeader(Dir))
      return Dir.str().str();
  }
  return hasRuntimeHeader(SONDE_RUNTIME_INCLUDE_SOURCE)
             ? SONDE_RUNTIME_INCLUDE_SOURCE
             : "";
}

std::string runtimeHeaderPath(StringRef Include, StringRef Name) {
  SmallString<256> Path(Include);
  sys::path::append(Path, Name);
  return sys::fs::exists(Path) ? Path.str().str() : "";
}

} // namespace frontdoor
} // namespace sonde
