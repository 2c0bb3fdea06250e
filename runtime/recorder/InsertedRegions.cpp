//===- InsertedRegions.cpp - What inserted regions call -------------------===//
//
// The opener and closer of sonde::InsertedRegion (sonde/detail/Inserted.h),
// the region every instrumented function and call site opens. They live
// here rather than inline in the header so that an instrumented translation
// unit declares them instead of compiling and optimizing them again.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

namespace sonde::rt::detail {

namespace {

/// The body of both openers.
SONDE_ALWAYS_INLINE uint32_t openSite(const Site &S) noexcept {
  uint32_t Id = activeId(S);
  if (!Id)
    return NotOpened;
  // The thread first: a thread's first record attaches it (its ring
  // allocated), which must come before the region's start, not inside it.
  ThreadState *T = thread();
  return open(T, Id, now());
}

} // namespace

uint32_t openOut(const Site &S) noexcept { return openSite(S); }

uint32_t openOutAt(const SiteTable &Tb, uint32_t I) noexcept {
  return openSite(Tb[I]);
}

void closeOut(uint32_t Depth) noexcept {
  if (Depth == NotOpened)
    return;
  // The thread that opened it, as long as it is attached: null only after
  // its exit handler ran, when nothing of it may be written any more.
  if (ThreadState *T = Current)
    closeAt(T, Depth, 0, now());
}

} // namespace sonde::rt::detail
