//===- HostCheck.cpp - Refuse to load into another clang ------------------===//
//
// A plugin only works inside the clang it was built for. Loaded into
// another major version it would, at best, register itself in a copy of
// clang's plugin registry that the host never reads and do nothing at all;
// at worst call into an incompatible ABI. Neither may pass silently, so the
// plugin checks its host when it is loaded and stops the compile with an
// error that says what to use instead.
//
// Three checks, before any static constructor of the plugin registers it:
//  - no libclang-cpp/libLLVM of another major version is loaded (a
//    dynamically linked clang, as distributions ship it);
//  - the clang library the plugin's own references bind to was loaded
//    before the plugin, i.e. the host uses it (a statically linked clang of
//    another version would not);
//  - the host's LLVMGetVersion, if it exports one, says the same major.
//
//===----------------------------------------------------------------------===//

#include "clang/Basic/Version.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef SONDE_CLANG_MAJOR
#error "SONDE_CLANG_MAJOR must name the clang major version built against"
#endif

namespace {

struct Loaded {
  std::string Name;
};

int collect(struct dl_phdr_info *Info, size_t, void *Data) {
  static_cast<std::vector<Loaded> *>(Data)->push_back(
      {Info->dlpi_name ? Info->dlpi_name : ""});
  return 0;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// The major version in `libclang-cpp.so.18.1`, `libLLVM.so.18.1`,
/// `libLLVM-18.so`, `libclang-cpp.so.18`; 0 if the name is none of those.
unsigned majorOf(const std::string &Base) {
  for (const char *Prefix : {"libclang-cpp.so.", "libLLVM.so.", "libLLVM-"}) {
    size_t N = std::strlen(Prefix);
    if (Base.compare(0, N, Prefix) != 0)
      continue;
    unsigned Major = 0;
    size_t I = N;
    while (I < Base.size() && Base[I] >= '0' && Base[I] <= '9')
      Major = Major * 10 + unsigned(Base[I++] - '0');
    return I > N ? Major : 0;
  }
  return 0;
}

/// Index in load order of the object holding `Addr`, or -1.
int indexOf(const std::vector<Loaded> &Objs, const void *Addr) {
  Dl_info Info;
  if (!dladdr(Addr, &Info) || !Info.dli_fname)
    return -1;
  for (size_t I = 0; I < Objs.size(); ++I)
    if (!Objs[I].Name.empty() && Objs[I].Name == Info.dli_fname)
      return int(I);
  return 0; // the executable has no name in dl_iterate_phdr
}

[[noreturn]] void refuse(const std::string &Host) {
  std::fprintf(stderr,
               "error: sonde-plugin-clang%d.so is built for clang %d but was "
               "loaded into %s; use the sonde plugin built for that clang, or "
               "compile with clang++-%d\n",
               SONDE_CLANG_MAJOR, SONDE_CLANG_MAJOR, Host.c_str(),
               SONDE_CLANG_MAJOR);
  std::fflush(stderr);
  // Not exit(): we are inside dlopen, and the host's atexit handlers must
  // not run against a half-loaded plugin.
  _exit(1);
}

std::string hostName(unsigned Major) {
  return "clang " + std::to_string(Major);
}

__attribute__((constructor(101))) void checkHost() {
  std::vector<Loaded> Objs;
  dl_iterate_phdr(collect, &Objs);
  for (const Loaded &O : Objs)
    if (unsigned M = majorOf(baseName(O.Name)); M && M != SONDE_CLANG_MAJOR)
      refuse(hostName(M) + " (" + baseName(O.Name) + " is loaded)");

  int Self = indexOf(Objs, reinterpret_cast<const void *>(&checkHost));
  std::string (*Version)() = &clang::getClangFullVersion;
  int Used = indexOf(Objs, reinterpret_cast<const void *>(Version));
  if (Self >= 0 && Used > Self)
    refuse("a compiler that does not provide clang " +
           std::to_string(SONDE_CLANG_MAJOR) + "'s libraries (" +
           baseName(Objs[Used].Name) + " was loaded for the plugin alone)");

  using GetVersion = void (*)(unsigned *, unsigned *, unsigned *);
  if (auto *Get =
          reinterpret_cast<GetVersion>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"))) {
    int Where = indexOf(Objs, reinterpret_cast<const void *>(Get));
    unsigned Major = 0, Minor = 0, Patch = 0;
    Get(&Major, &Minor, &Patch);
    if (Where >= 0 && Where < Self && Major != SONDE_CLANG_MAJOR)
      refuse(hostName(Major));
  }
}

} // namespace
