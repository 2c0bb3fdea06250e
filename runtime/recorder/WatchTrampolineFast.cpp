//===- WatchTrampolineFast.cpp - A scalar watch in general registers ------===//
//
// The fast half behind sonde_watch_trampoline (WatchTrampoline.h): the
// record of a scalar watch written with general registers only. This file
// is compiled without SSE or MMX (runtime/CMakeLists.txt), and
// test/lit/exec/watch-trampoline.cpp disassembles what it became to hold it
// to that: the caller's vector registers are not saved on this path.
// Everything that may need more (registering a site, a thread's first
// record, a full ring, decoding a table) is left to the slow half.
//
//===----------------------------------------------------------------------===//

#include "WatchTrampoline.h"

#include <cpuid.h>

using namespace sonde;
using namespace sonde::rt;
using namespace sonde::rt::detail;

extern "C" int sonde_watch_fast(const SiteTable *Table, uint64_t Packed,
                                uint64_t Bits) noexcept {
  const Site *Sites = Table->sites();
  if (!Sites)
    return NeedsSlow; // the table's first use decodes it
  auto Index = static_cast<uint32_t>(Packed >> SONDE_TRAMPOLINE_TAG_BITS);
  auto Tag = static_cast<ValueTag>(Packed & 0xff);
  const Site &S = Sites[Index];
  // activeId() without its registration.
  uint32_t St = S.State.load(rt::detail::MemOrder::Relaxed);
  if (!(St & Site::OnBit))
    return St != 0 ? Recorded : NeedsSlow; // off, or not registered yet
  ThreadState *T = Current;
  if (!T)
    return NeedsSlow;
  char *P = tryReserve(T, 24);
  if (!P)
    return NeedsSlow;
  putScalarWatch(T, P, St & Site::IdMask, Tag, Bits);
  if (Tag == ValueTag::Float && finiteCheckFails(S, Bits))
    return NeedsAlarm;
  return Recorded;
}

extern "C" uint32_t sonde_vector_area() noexcept {
  static uint32_t Bytes = 0; // the same on every thread: a benign race
  if (Bytes)
    return Bytes;
  unsigned A, B, C, D;
  uint32_t Found = 512; // FXSAVE's
  // XSAVE only where the kernel enabled it (OSXSAVE): leaf 0xD, sub-leaf
  // 0, gives in EBX the area for the features it enabled in XCR0.
  if (__get_cpuid(1, &A, &B, &C, &D) && (C & bit_OSXSAVE)) {
    __cpuid_count(0xd, 0, A, B, C, D);
    if (B > 576) // at least the legacy area and the header
      Found = B;
  }
  __atomic_store_n(&Bytes, Found, __ATOMIC_RELAXED);
  return Found;
}
