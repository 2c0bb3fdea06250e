//===- LargeBuffer.cpp - Memory for megabytes written once ----------------===//

#include "LargeBuffer.h"

#include <cstdlib>
#include <sys/mman.h>

namespace sonde::trace::detail {

namespace {
constexpr size_t HugePage = size_t(2) << 20;
} // namespace

LargeBuffer::LargeBuffer(size_t Bytes) {
  if (Bytes < MappedFrom) {
    P = std::malloc(Bytes ? Bytes : 1);
    return;
  }
  // Whole huge pages, so that the last one is not split back into small
  // pages. The kernel aligns a mapping of this size to 2 MB itself (THP
  // alignment of anonymous mappings) where it can.
  size_t Len = (Bytes + HugePage - 1) / HugePage * HugePage;
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
  if (Mapped)
    ::munmap(P, Mapped);
  else
    std::free(P);
  P = nullptr;
  Mapped = 0;
}

} // namespace sonde::trace::detail
