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

uint32_t openOutAt(const SiteTable &Tb, uint32_t I) noexcept {
  uint32_t Id = activeId(Tb[I]);
  if (!Id)
    return NotOpened;
  // The thread first: a thread's first record attaches it (its ring
  // allocated), which must come before the region's start, not inside it.
  ThreadState *T = thread();
  return open(T, Id, now());
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
