//===- Output.cpp - Where the `sonde` tool writes -------------------------===//
//
// A FILE for the exporters: a plain file, or, when the name ends in `.gz`
// (DFTracer's `.pfw.gz`), a gzip stream through zlib, behind the same FILE
// interface (glibc's fopencookie), so no exporter knows the difference.
//
//===----------------------------------------------------------------------===//

#include "Export.h"

#include <cerrno>
#include <cstring>
#include <zlib.h>

namespace sonde::trace {
namespace {

ssize_t gzCookieWrite(void *Cookie, const char *Buf, size_t Size) {
  if (Size == 0)
    return 0;
  int N =
      gzwrite(static_cast<gzFile>(Cookie), Buf, static_cast<unsigned>(Size));
  return N > 0 ? N : -1;
}

int gzCookieClose(void *Cookie) {
  return gzclose(static_cast<gzFile>(Cookie)) == Z_OK ? 0 : EOF;
}

bool endsWith(const std::string &S, const char *Suffix) {
  size_t N = std::strlen(Suffix);
  return S.size() >= N && S.compare(S.size() - N, N, Suffix) == 0;
}

} // namespace

std::FILE *openOutput(const std::string &Path, std::string &Error) {
  if (!endsWith(Path, ".gz")) {
    std::FILE *F = std::fopen(Path.c_str(), "wb");
    if (!F)
      Error = Path + ": cannot write: " + std::strerror(errno);
    return F;
  }
  gzFile Z = gzopen(Path.c_str(), "wb6");
  if (!Z) {
    Error = Path + ": cannot write: " + std::strerror(errno ? errno : EIO);
    return nullptr;
  }
  cookie_io_functions_t Io = {nullptr, gzCookieWrite, nullptr, gzCookieClose};
  std::FILE *F = fopencookie(Z, "w", Io);
  if (!F) {
    gzclose(Z);
    Error = Path + ": cannot write: " + std::strerror(errno);
  }
  return F;
}

} // namespace sonde::trace
