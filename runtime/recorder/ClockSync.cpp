//===- ClockSync.cpp - The clocks a trace records, and the exchange result ===//
//
// Everything libsonde reads of the clocks for the trace's timeline goes
// through here, so a simulated host (SONDE_TEST_CLOCK_OFFSET, ClockShift.h)
// shifts all of it at once: the anchors, the start time, the boot id and
// libsonde_torch's side of the clock exchange. The exchange's result
// (sonde/detail/ClockSync.h) waits in a seqlock-free slot: written once per
// exchange by libsonde_torch's thread, published by a release store, read
// by the writer when it writes an anchor (also on the crash path: no lock,
// no allocation).
//
//===----------------------------------------------------------------------===//

#include "sonde/detail/ClockSync.h"

#include "Runtime.h"
#include "WriterState.h"

#include <atomic>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace sonde::rt {
namespace detail {
namespace {

uint64_t rawNs(clockid_t Id) {
  timespec Ts;
  clock_gettime(Id, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000u +
         static_cast<uint64_t>(Ts.tv_nsec);
}

/// The last exchange's result. `Ready` is stored (release) after the
/// fields; a second result is not expected while the writer reads the
/// first (one exchange a process), and a torn read would only mix two
/// measurements of the same offset.
struct SyncSlot {
  std::atomic<bool> Ready{false};
  int64_t OffsetNs = 0, UncertaintyNs = 0;
  uint64_t RefRank = 0;
  char RefBoot[MaxBootIdBytes] = {};
};
SyncSlot Slot;

} // namespace

uint64_t shiftedClockNs(clockid_t Id) noexcept {
  // The shift is at most an hour (ClockShift.h) and the clocks are past
  // it on any machine up that long; held at 0 otherwise.
  int64_t V = static_cast<int64_t>(rawNs(Id)) + config().ClockShiftNs;
  return V > 0 ? static_cast<uint64_t>(V) : 0;
}

void readBootId(char *Out, size_t Size) noexcept {
  // open/read only: this may run on the crash path.
  std::memset(Out, 0, Size);
  int Fd = ::open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (Fd >= 0) {
    ssize_t N = ::read(Fd, Out, Size > 40 ? 40 : Size - 1);
    ::close(Fd);
    Out[N > 0 ? N : 0] = '\0';
    for (char *C = Out; *C; ++C)
      if (*C == '\n')
        *C = '\0';
  }
  int64_t Shift = config().ClockShiftNs;
  if (Shift == 0)
    return;
  // A simulated host: the real boot id and the offset, so that ranks with
  // the same offset share a host and no other does.
  char Digits[24];
  int N = 0;
  uint64_t U =
      Shift < 0 ? static_cast<uint64_t>(-Shift) : static_cast<uint64_t>(Shift);
  do
    Digits[N++] = static_cast<char>('0' + U % 10);
  while ((U /= 10) != 0);
  size_t Len = strnlen(Out, Size);
  const char *Tag =
      Shift < 0 ? "+simulated-clock-offset:-" : "+simulated-clock-offset:";
  for (const char *T = Tag; *T && Len + 1 < Size; ++T)
    Out[Len++] = *T;
  while (N > 0 && Len + 1 < Size)
    Out[Len++] = Digits[--N];
  Out[Len] = '\0';
}

bool clockSync(int64_t &OffsetNs, int64_t &UncertaintyNs, uint64_t &RefRank,
               const char *&RefBoot) noexcept {
  if (!Slot.Ready.load(std::memory_order_acquire))
    return false;
  OffsetNs = Slot.OffsetNs;
  UncertaintyNs = Slot.UncertaintyNs;
  RefRank = Slot.RefRank;
  RefBoot = Slot.RefBoot;
  return true;
}

} // namespace detail

int64_t traceMonotonicNs() noexcept {
  detail::ensureInit();
  return static_cast<int64_t>(detail::shiftedClockNs(CLOCK_MONOTONIC));
}

void traceWorld(uint64_t &Rank, uint64_t &WorldSize) noexcept {
  detail::ensureInit();
  const detail::Config &C = detail::config();
  Rank = C.Rank;
  WorldSize = C.WorldSize == ~uint64_t(0) ? 0 : C.WorldSize;
}

void traceBootId(char *Out, size_t Size) noexcept {
  detail::ensureInit();
  detail::readBootId(Out, Size);
}

void recordClockSync(int64_t OffsetNs, int64_t UncertaintyNs, uint64_t RefRank,
                     const char *RefBoot) noexcept {
  detail::SyncSlot &S = detail::Slot;
  S.Ready.store(false, std::memory_order_relaxed);
  S.OffsetNs = OffsetNs;
  S.UncertaintyNs = UncertaintyNs < 0 ? 0 : UncertaintyNs;
  S.RefRank = RefRank;
  size_t N = RefBoot ? strnlen(RefBoot, sizeof S.RefBoot - 1) : 0;
  std::memcpy(S.RefBoot, RefBoot, N);
  S.RefBoot[N] = '\0';
  S.Ready.store(true, std::memory_order_release);
}

} // namespace sonde::rt
