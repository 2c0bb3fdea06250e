//===- ClockSync.h - libsonde's side of the ranks' clock exchange -*- C++
//-*-===//
//
// Ranks on different machines have different clocks. libsonde_torch
// measures, at a job's first collective, the offset of this rank's
// CLOCK_MONOTONIC from rank 0's through the job's c10d store (NTP-style,
// bounded by the round trip: runtime/torch/TorchClock.cpp), and hands the
// result here; libsonde writes it into the trace with its next clock anchor
// (format 1.4, docs/trace-format.md), where `sonde merge` reads it. Not for
// instrumented code: the two libraries' interface.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_CLOCKSYNC_H
#define SONDE_DETAIL_CLOCKSYNC_H

#include <cstddef>
#include <cstdint>

namespace sonde::rt {

/// CLOCK_MONOTONIC in ns as this process's clock anchors record it (with a
/// simulated host's shift, SONDE_TEST_CLOCK_OFFSET).
int64_t traceMonotonicNs() noexcept;

/// This process's rank and world size as its trace records them; the world
/// size is 0 when no launcher gave one.
void traceWorld(uint64_t &Rank, uint64_t &WorldSize) noexcept;

/// The boot id this process's trace records (the kernel's, or a simulated
/// host's), into `Out` (NUL-terminated, at most `Size` bytes).
void traceBootId(char *Out, size_t Size) noexcept;

/// The largest boot id a clock exchange carries (the kernel's is 36 bytes;
/// a simulated host's adds its offset).
constexpr size_t MaxBootIdBytes = 96;

/// The result of a clock exchange: rank `RefRank`'s monotonic clock minus
/// this process's at one instant, within +-UncertaintyNs; `RefBoot` is the
/// reference's boot id. Written with the next clock anchor; a later result
/// replaces it.
void recordClockSync(int64_t OffsetNs, int64_t UncertaintyNs, uint64_t RefRank,
                     const char *RefBoot) noexcept;

} // namespace sonde::rt

#endif // SONDE_DETAIL_CLOCKSYNC_H
