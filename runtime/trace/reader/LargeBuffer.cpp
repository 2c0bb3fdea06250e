//===- LargeBuffer.cpp - Memory for megabytes written once ----------------===//

#include "LargeBuffer.h"

#include <cstdlib>
#include <mutex>
#include <sys/mman.h>

namespace sonde::trace::detail {

namespace {
constexpr size_t HugePage = size_t(2) << 20;

/// Mappings given back, kept for the next file's buffers: a command that
/// reads files one after another (or one while it checks another) reuses
/// pages already faulted in instead of having the kernel zero new ones.
/// At most a few, and a bound on the bytes kept.
class Kept {
public:
  void *take(size_t Len) {
    std::lock_guard<std::mutex> G(Lock);
    for (size_t I = 0; I < N; ++I)
      if (Maps[I].Len == Len) {
        void *P = Maps[I].P;
        Bytes -= Len;
        Maps[I] = Maps[--N];
        return P;
      }
    return nullptr;
  }
  bool give(void *P, size_t Len) {
    std::lock_guard<std::mutex> G(Lock);
    if (N == Most || Bytes + Len > MostBytes)
      return false;
    Maps[N++] = {P, Len};
    Bytes += Len;
    return true;
  }

private:
  static constexpr size_t Most = 8;
  static constexpr size_t MostBytes = size_t(256) << 20;
  struct Map {
    void *P;
    size_t Len;
  };
  std::mutex Lock;
  Map Maps[Most] = {};
  size_t N = 0, Bytes = 0;
};

Kept &kept() {
  static Kept *K = new Kept; // never destroyed: used until the process ends
  return *K;
}
} // namespace

LargeBuffer::LargeBuffer(size_t Bytes) {
  if (Bytes < MappedFrom) {
    P = std::malloc(Bytes ? Bytes : 1);
    return;
  }
  // Whole huge pages, so that the last one is not split back into small
  // pages. The kernel aligns a mapping of this size to 2 MB itself (THP
  // alignment of anonymous mappings) where it can. (The recorder's rings
  // ask for huge pages too, through posix_memalign, recorder/Threads.cpp;
  // these are mapped on their own so that a freed one is kept whole for
  // the next file.)
  size_t Len = (Bytes + HugePage - 1) / HugePage * HugePage;
  if (void *Again = kept().take(Len)) {
    P = Again;
    Mapped = Len;
    return;
  }
  void *M = ::mmap(nullptr, Len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (M == MAP_FAILED) { // as malloc would have answered
    P = std::malloc(Bytes);
    return;
  }
#ifdef MADV_HUGEPAGE
  ::madvise(M, Len, MADV_HUGEPAGE); // a hint: no huge pages is no error
#endif
  P = M;
  Mapped = Len;
}

LargeBuffer &LargeBuffer::operator=(LargeBuffer &&O) noexcept {
  if (this != &O) {
    release();
    P = O.P;
    Mapped = O.Mapped;
    O.P = nullptr;
    O.Mapped = 0;
  }
  return *this;
}

void LargeBuffer::release() {
  if (!Mapped)
    std::free(P);
  else if (!kept().give(P, Mapped))
    ::munmap(P, Mapped);
  P = nullptr;
  Mapped = 0;
}

} // namespace sonde::trace::detail
