//===- Timeline.cpp - Times on the wall clock -----------------------------===//
//
// Ticks become nanoseconds since the Unix epoch through the clock anchors:
// a straight line through the first and the last, known after the outline
// (walk 1), so every record converts as it is decoded. Times outside
// [0, MaxTimeNs] (a corrupt anchor or timestamp) are held at its bounds,
// and the check (walk 2) counts them to say so before any event is given.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>
#include <cmath>

namespace sonde::trace::detail {

void Decoder::clockLine() {
  // The TSC is invariant on the machines we run on; the writer anchors
  // every second.
  Rate = 1.0;
  BaseTsc = 0;
  BaseNs = T.Process.StartNs;
  const std::vector<ClockAnchor> &Anchors = T.Anchors;
  if (!Anchors.empty()) {
    BaseTsc = Anchors.front().Tsc;
    BaseNs = Anchors.front().RealNs;
    const ClockAnchor &L = Anchors.back();
    if (Anchors.size() >= 2 && L.Tsc > BaseTsc)
      // Unsigned arithmetic wraps where signed would overflow on a corrupt
      // anchor; on a real one both give the same difference.
      Rate = static_cast<double>(
                 static_cast<int64_t>(static_cast<uint64_t>(L.RealNs) -
                                      static_cast<uint64_t>(BaseNs))) /
             static_cast<double>(L.Tsc - BaseTsc);
  }
  T.NsPerTick = Rate;
}

uint64_t Decoder::lastTsc() const {
  uint64_t Last = std::max(MaxTsc, EndTsc);
  if (!T.Anchors.empty())
    Last = std::max(Last, T.Anchors.back().Tsc);
  return Last;
}

bool Decoder::extremesSuffice() {
  if (!AnyTick)
    return true;
  int64_t Lo = toNs(MinTick), Hi = toNs(MaxTick);
  if (Rate < 0 || Lo != bound(Lo) || Hi != bound(Hi))
    return false;
  // toNs() takes a tick as a signed distance from the base: the extremes
  // say it all only if no tick between them is more than 2^63 past it (a
  // corrupt tick), where the distance turns negative.
  if (static_cast<int64_t>(MinTick - BaseTsc) >
      static_cast<int64_t>(MaxTick - BaseTsc))
    return false;
  MinStartNs = AnyEvent ? std::min(MinStartNs, Lo) : Lo;
  AnyEvent = true;
  return true;
}

void Decoder::finishCheck() {
  uint64_t Last = lastTsc();
  // Regions still open at the end: their args are those in force at the
  // end of their thread; they last until the trace's end.
  for (OpenAtEnd &O : Open) {
    if (argsAskedOf(O.Site))
      O.A = argsFor(Threads[O.Thread], O.Site);
    countTime(O.StartTsc, Last > O.StartTsc ? Last : O.StartTsc);
  }
  Records += Open.size();
  if (OutOfRange)
    TimeProblem = std::to_string(OutOfRange) +
                  " times before 1970 or after 2116 (a corrupt clock anchor "
                  "or timestamp) were held at those bounds";
  uint64_t Sum = 0;
  for (const auto &KV : Dropped)
    Sum += KV.second;
  T.Process.Dropped = std::max(T.Process.Dropped, Sum);
  T.Process.EndNs = std::max(T.Process.StartNs, bound(toNs(Last)));
  Threads.clear(); // the events walk decodes the context again
}

} // namespace sonde::trace::detail
