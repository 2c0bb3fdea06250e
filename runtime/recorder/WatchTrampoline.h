//===- WatchTrampoline.h - The two halves behind the trampoline -*- C++ -*-===//
//
// sonde_watch_trampoline (WatchTrampoline.S) saves the general registers
// and calls the fast half, which is compiled without vector or x87
// registers (WatchTrampolineFast.cpp) so that it leaves them as the caller
// had them. When the fast half cannot finish (a site's or a thread's first
// record, a full ring, a table not decoded yet, a `check: finite` alarm)
// the trampoline saves the vector state too (XSAVE) and calls the slow
// half, ordinary code (WatchTrampolineSlow.cpp) that may call anything.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_RECORDER_WATCHTRAMPOLINE_H
#define SONDE_RECORDER_WATCHTRAMPOLINE_H

#include "sonde/sonde.h"

#include <cstdint>

namespace sonde::rt::detail {

/// What the fast half answers (the trampoline tests it for zero).
enum TrampolineAnswer : int {
  Recorded = 0,   ///< the record is written, or the site is off
  NeedsSlow = 1,  ///< nothing written: the slow half records the watch
  NeedsAlarm = 2, ///< the record is written; `check: finite` must alarm
};

} // namespace sonde::rt::detail

extern "C" {
/// The fast half: `Packed` is the site's index above its tag
/// (SONDE_TRAMPOLINE_TAG_BITS), `Bits` the value's 8 bytes.
__attribute__((visibility("hidden"))) int
sonde_watch_fast(const sonde::SiteTable *Table, uint64_t Packed,
                 uint64_t Bits) noexcept;
/// The bytes the trampoline saves the vector state in: XSAVE's area for
/// what the kernel enabled (CPUID leaf 0xD), or 512 (FXSAVE) where the
/// kernel did not enable XSAVE. Compiled with the fast half: it must not
/// touch a vector register either, since it runs before they are saved.
__attribute__((visibility("hidden"))) uint32_t sonde_vector_area() noexcept;
/// The slow half, `Answer` the fast half's.
__attribute__((visibility("hidden"))) void
sonde_watch_slow(const sonde::SiteTable *Table, uint64_t Packed, uint64_t Bits,
                 int Answer) noexcept;
}

#endif // SONDE_RECORDER_WATCHTRAMPOLINE_H
