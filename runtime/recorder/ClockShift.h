//===- ClockShift.h - A simulated host's clocks, for tests ------*- C++ -*-===//
//
// Ranks on different machines read different clocks; one machine's tests
// cannot have that for real. SONDE_TEST_CLOCK_OFFSET simulates it: a list
// of `RANK:NANOSECONDS` entries (`1:7000000000,3:-2500000000`), one
// environment for every rank of a launcher. A listed rank records as if
// on another host whose CLOCK_REALTIME and CLOCK_MONOTONIC read that much
// ahead (behind, when negative): its clock anchors, its start time and its
// side of the clock exchange are shifted, and its boot id names the
// simulated host, so `sonde merge` cannot take it for one of the real
// host's processes. The whole value is refused, said once, at the first
// malformed entry. Header-only so the unit tests check the code libsonde
// runs; it allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_LIB_CLOCKSHIFT_H
#define SONDE_LIB_CLOCKSHIFT_H

#include "Env.h"

#include <cstddef>
#include <cstdint>

namespace sonde::rt::env {

/// The largest simulated offset: an hour, so shifted clocks stay positive
/// on any machine up more than an hour and far from any overflow.
constexpr uint64_t MaxClockShiftNs = uint64_t(3600) * 1000000000u;

/// The shift SONDE_TEST_CLOCK_OFFSET (`S`) gives rank `Rank` (0 when it is
/// not listed). False when an entry is not `RANK:NANOSECONDS` (a rank, a
/// whole number of nanoseconds with an optional sign, at most
/// MaxClockShiftNs either way) or `Rank` is listed twice: `Bad` is then
/// the entry and `BadLen` its length.
inline bool parseClockShift(const char *S, uint64_t Rank, int64_t &Out,
                            const char *&Bad, size_t &BadLen) {
  Out = 0;
  const char *P = S;
  bool Seen = false;
  while (true) {
    const char *Entry = P;
    const char *E = Entry;
    while (*E && *E != ',')
      ++E;
    Bad = Entry;
    BadLen = static_cast<size_t>(E - Entry);
    const char *Q = nullptr;
    uint64_t R = 0, Ns = 0;
    if (!parseDigits(Entry, Q, R) || R > MaxRank || *Q != ':')
      return false;
    ++Q;
    bool Negative = *Q == '-';
    if (*Q == '-' || *Q == '+')
      ++Q;
    const char *End = nullptr;
    if (!parseDigits(Q, End, Ns) || End != E || Ns > MaxClockShiftNs)
      return false;
    if (R == Rank) {
      if (Seen)
        return false;
      Seen = true;
      Out = Negative ? -static_cast<int64_t>(Ns) : static_cast<int64_t>(Ns);
    }
    if (!*E)
      return true;
    P = E + 1;
  }
}

} // namespace sonde::rt::env

#endif // SONDE_LIB_CLOCKSHIFT_H
