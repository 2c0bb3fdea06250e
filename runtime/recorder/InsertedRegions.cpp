//===- InsertedRegions.cpp - What inserted regions call -------------------===//
//
// The opener and closer of sonde::InsertedRegion (sonde/detail/Inserted.h),
// the region every instrumented function and call site opens. They live
// here rather than inline in the header so that an instrumented translation
// unit declares them instead of compiling and optimizing them again.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>

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
  closeIterationOut(Depth, NotIteration);
}

uint32_t openArgsOut(const Site &S, const ArgSlot *Args, uint32_t N,
                     uint32_t Max) noexcept {
  uint32_t Id = activeId(S);
  if (!Id)
    return NotOpened;
  ThreadState *T = thread(); // first, as in openOutAt
  uint64_t Tsc = now();
  // The context record pushArgs writes, from the slots, and only for a
  // region on the shadow stack (openWithArgs says why).
  bool HasArgs = N > 0 && roomFor(T);
  if (HasArgs)
    writeContextPush(T, Id, Tsc, Max, static_cast<uint8_t>(N),
                     [&](ValueWriter &W) {
                       for (uint32_t I = 0; I < N; ++I)
                         Args[I].Write(W, Args[I]);
                     });
  return open(T, Id, Tsc, HasArgs);
}

void closeIterationOut(uint32_t Depth, uint64_t Index) noexcept {
  if (Depth == NotOpened)
    return;
  // The thread that opened it, as long as it is attached: null only after
  // its exit handler ran, when nothing of it may be written any more.
  if (ThreadState *T = Current)
    closeAt(T, Depth, 0, now(), Index);
}

// The writers of arithmetic args: what ValueTraits writes for their
// written types (WrittenAs).
void writeIntArg(ValueWriter &W, const ArgSlot &A) noexcept {
  W.integer(static_cast<int64_t>(A.Bits));
}
void writeUIntArg(ValueWriter &W, const ArgSlot &A) noexcept {
  W.unsignedInteger(A.Bits);
}
void writeFloatArg(ValueWriter &W, const ArgSlot &A) noexcept {
  double D;
  std::memcpy(&D, &A.Bits, 8);
  W.floating(D);
}
void writeBoolArg(ValueWriter &W, const ArgSlot &A) noexcept {
  W.boolean(A.Bits != 0);
}

} // namespace sonde::rt::detail
