//===- Timeline.cpp - Times on the wall clock, events in program order ----===//
//
// After the last block: ticks become nanoseconds since the Unix epoch
// through the clock anchors (held in [0, MaxTimeNs], and said when a corrupt
// one would leave it), regions still open end at the trace's end, and each
// thread's records are put in the order the program made them, the threads
// merged by time.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace sonde::trace::detail {

void Decoder::programOrder() {
  // Each thread's records in the order the program made them, whatever the
  // clock says. A thread's file order is the order its records were
  // completed: a region comes after everything inside it. Turned around
  // (post-order to pre-order): a region at level L goes before the run of
  // records just before it whose level is deeper than L. Threads are then
  // merged by time, each keeping its own order.
  constexpr uint32_t None = ~0u;
  const size_t N = T.Events.size();
  std::map<uint32_t, std::vector<uint32_t>> ByThread;
  for (size_t I = 0; I < N; ++I)
    ByThread[T.Events[I].Thread].push_back(static_cast<uint32_t>(I));
  std::vector<uint32_t> Next(N, None), Prev(N, None);
  auto Inside = [&](uint32_t Node, const Event &R) {
    const Event &E = T.Events[Node];
    if (OrderLevel[Node] != NoLevel)
      return OrderLevel[Node] > R.Level;
    return E.Ts >= R.Ts; // format 1.1: a tie goes inside
  };
  struct Root {
    uint32_t First; ///< the first record of its subtree in the list
    uint32_t Node;
  };
  std::vector<Root> Roots;
  std::vector<uint32_t> Heads;
  for (auto &[Thread, List] : ByThread) {
    // Regions still open at the end were written outermost first: take
    // them innermost first, each around what came before it.
    auto Open =
        std::stable_partition(List.begin(), List.end(), [&](uint32_t I) {
          return !T.Events[I].Unfinished;
        });
    std::stable_sort(Open, List.end(), [&](uint32_t A, uint32_t B) {
      return T.Events[A].Level > T.Events[B].Level;
    });
    Roots.clear();
    uint32_t Head = None, Tail = None;
    for (uint32_t I : List) {
      const Event &E = T.Events[I];
      uint32_t Adopted = None;
      if (E.Kind == EventKind::Region)
        while (!Roots.empty() && Inside(Roots.back().Node, E)) {
          Adopted = Roots.back().First;
          Roots.pop_back();
        }
      if (Adopted == None) { // at the end of the list
        Prev[I] = Tail;
        if (Tail != None)
          Next[Tail] = I;
        else
          Head = I;
        Tail = I;
      } else { // before its first nested record
        Prev[I] = Prev[Adopted];
        Next[I] = Adopted;
        if (Prev[Adopted] != None)
          Next[Prev[Adopted]] = I;
        else
          Head = I;
        Prev[Adopted] = I;
      }
      Roots.push_back({I, I});
    }
    Heads.push_back(Head);
  }
  // Merge the threads by time (file order between equal times).
  auto Later = [&](uint32_t A, uint32_t B) {
    const Event &EA = T.Events[A], &EB = T.Events[B];
    return EA.Ts != EB.Ts ? EA.Ts > EB.Ts : A > B;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(Later)> Queue(
      Later, std::move(Heads));
  std::vector<Event> Sorted;
  Sorted.reserve(N);
  while (!Queue.empty()) {
    uint32_t I = Queue.top();
    Queue.pop();
    Sorted.push_back(std::move(T.Events[I]));
    if (Next[I] != None)
      Queue.push(Next[I]);
  }
  T.Events = std::move(Sorted);
}

void Decoder::finish() {
  // Time: a straight line through the first and last anchors. The TSC is
  // invariant on the machines we run on; the writer anchors every second.
  double Rate = 1.0;
  uint64_t BaseTsc = 0;
  int64_t BaseNs = T.Process.StartNs;
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
  auto ToNs = [&](uint64_t Tsc) {
    int64_t Off = static_cast<int64_t>(std::llround(
        static_cast<double>(static_cast<int64_t>(Tsc - BaseTsc)) * Rate));
    // A corrupt timestamp saturates instead of overflowing (found by
    // fuzz-trace).
    int64_t Ns;
    if (__builtin_add_overflow(BaseNs, Off, &Ns))
      Ns = Off > 0 ? INT64_MAX : INT64_MIN;
    return Ns;
  };
  uint64_t Last = std::max(MaxTsc, EndTsc);
  if (!Anchors.empty())
    Last = std::max(Last, Anchors.back().Tsc);
  // Times outside [0, MaxTimeNs] (a corrupt anchor or timestamp) are held
  // at its bounds, and said.
  size_t OutOfRange = 0;
  auto Bound = [&](int64_t Ns) {
    if (Ns >= 0 && Ns <= MaxTimeNs)
      return Ns;
    ++OutOfRange;
    return Ns < 0 ? int64_t(0) : MaxTimeNs;
  };
  for (Event &E : T.Events) {
    uint64_t Tsc = static_cast<uint64_t>(E.Ts);
    E.Ts = Bound(ToNs(Tsc));
    if (E.Kind == EventKind::Region) {
      uint64_t DurTicks = E.Dur >= 0 ? static_cast<uint64_t>(E.Dur)
                                     : (Last > Tsc ? Last - Tsc : 0);
      // The end converted as a point, not the length as a length: rounded
      // apart, Ts + Dur could pass the start of what follows by 1 ns.
      E.Dur = std::max<int64_t>(0, Bound(ToNs(Tsc + DurTicks)) - E.Ts);
    }
  }
  if (OutOfRange)
    TimeProblem = std::to_string(OutOfRange) +
                  " times before 1970 or after 2116 (a corrupt clock anchor "
                  "or timestamp) were held at those bounds";
  programOrder();
  uint64_t Sum = 0;
  for (const auto &KV : Dropped)
    Sum += KV.second;
  T.Process.Dropped = std::max(T.Process.Dropped, Sum);
  T.Process.EndNs = std::max(T.Process.StartNs, Bound(ToNs(Last)));
}

} // namespace sonde::trace::detail
