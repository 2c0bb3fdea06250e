//===- Merge.cpp - Several processes or ranks on one timeline -------------===//
//
// Every file's times are already nanoseconds since the Unix epoch, read
// through its own CLOCK_REALTIME anchors. That is not enough to merge: the
// wall clock can be stepped (NTP, an admin) between one process's anchors
// and another's, so two processes of one run can disagree by milliseconds.
// Processes of one boot of one machine share CLOCK_MONOTONIC, which never
// steps; every Clock anchor records it next to the wall clock. So files
// with the same boot id are placed on their monotonic clock, shifted by one
// offset for the whole group (the median of realtime - monotonic over all
// the group's anchors). A group (a host) whose ranks measured their clock
// against rank 0's at run time (a clock exchange, format 1.4: rank 0's
// monotonic clock minus theirs, within a stated uncertainty) is placed on
// rank 0's host's line through that offset, and the note says how
// precisely. Other groups are placed relative to each other by their wall
// clocks, which is as good as their NTP synchronisation.
//
//===----------------------------------------------------------------------===//

#include "Export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace sonde::trace {
namespace {

bool hasMonotonic(const Trace &T) {
  return !T.Process.BootId.empty() && !T.Anchors.empty() &&
         T.Anchors.front().MonoNs > 0;
}

/// Moves a trace from its wall-clock line to `Off` + its monotonic line.
/// Returns the shift at its first anchor.
int64_t placeOnMonotonic(Trace &T, int64_t Off) {
  const ClockAnchor F = T.Anchors.front(), L = T.Anchors.back();
  double Ratio = 1.0;
  if (L.RealNs != F.RealNs && L.MonoNs != F.MonoNs)
    Ratio = static_cast<double>(L.MonoNs - F.MonoNs) /
            static_cast<double>(L.RealNs - F.RealNs);
  // Held in [0, MaxTimeNs] as the reader's times are: a corrupt anchor
  // must not overflow the times of a file merged with others.
  auto Map = [F, Ratio, Off](int64_t Real) {
    double Scaled = static_cast<double>(Real - F.RealNs) * Ratio;
    int64_t Delta = !(std::fabs(Scaled) < static_cast<double>(MaxTimeNs))
                        ? (Scaled > 0 ? MaxTimeNs : -MaxTimeNs)
                        : static_cast<int64_t>(std::llround(Scaled));
    int64_t Ns; // F.MonoNs + Off is within [-MaxTimeNs, 2 * MaxTimeNs]
    if (__builtin_add_overflow(F.MonoNs + Off, Delta, &Ns))
      Ns = Delta > 0 ? MaxTimeNs : 0;
    return std::clamp<int64_t>(Ns, 0, MaxTimeNs);
  };
  // A streamed trace's events are placed as they are read.
  if (T.Stream)
    T.TimeMap = Map;
  for (Event &E : T.Events) {
    int64_t Start = Map(E.Ts);
    if (E.Kind == EventKind::Region)
      E.Dur = Map(E.Ts + E.Dur) - Start;
    E.Ts = Start;
  }
  T.Process.StartNs = Map(T.Process.StartNs);
  T.Process.EndNs = Map(T.Process.EndNs);
  return (F.MonoNs - F.RealNs) + Off; // each within +-MaxTimeNs
}

std::string label(const Trace &T) {
  return T.Path + " (" + T.Process.Program + " rank " +
         std::to_string(T.Process.Rank) + " pid " +
         std::to_string(T.Process.Pid) + ")";
}

/// A duration in the unit that suits it: `250.000 s`, `85.312 us`.
std::string human(int64_t Ns) {
  char Buf[32];
  double V = static_cast<double>(Ns);
  if (Ns >= 1000000000)
    std::snprintf(Buf, sizeof Buf, "%.3f s", V / 1e9);
  else if (Ns >= 1000000)
    std::snprintf(Buf, sizeof Buf, "%.3f ms", V / 1e6);
  else if (Ns >= 1000)
    std::snprintf(Buf, sizeof Buf, "%.3f us", V / 1e3);
  else
    std::snprintf(Buf, sizeof Buf, "%lld ns", static_cast<long long>(Ns));
  return Buf;
}

/// Hosts (boot groups) placed by a clock exchange (format 1.4): a group one
/// of whose files measured its CLOCK_MONOTONIC against a rank of another
/// group, that group being merged too, goes on that group's timeline
/// through the offset of its most precise member. Updates `Offs`; returns
/// the groups it placed.
std::set<std::string>
placeByExchange(const std::vector<Trace> &Traces,
                const std::map<std::string, std::vector<size_t>> &Groups,
                std::map<std::string, int64_t> &Offs,
                std::vector<std::string> &Notes) {
  std::map<std::string, int64_t> Placed;
  for (const auto &[Boot, Members] : Groups) {
    const Trace *Best = nullptr;
    for (size_t I : Members) {
      const ClockSync &S = Traces[I].Sync;
      if (S.Known && S.RefBoot != Boot &&
          (!Best || S.UncertaintyNs < Best->Sync.UncertaintyNs))
        Best = &Traces[I];
    }
    if (!Best)
      continue;
    const ClockSync &S = Best->Sync;
    auto Ref = Offs.find(S.RefBoot);
    if (Ref == Offs.end()) {
      Notes.push_back(label(*Best) + ": its clock exchange was with rank " +
                      std::to_string(S.RefRank) +
                      ", whose host has no file here; placed by its wall "
                      "clock");
      continue;
    }
    // Ref's timeline is its monotonic clock + Ref->second; this group's
    // monotonic clock + OffsetNs is Ref's monotonic clock.
    Placed[Boot] = S.OffsetNs + Ref->second;
    int64_t Abs = S.OffsetNs < 0 ? -S.OffsetNs : S.OffsetNs;
    Notes.push_back(label(*Best) + ": on another host than rank " +
                    std::to_string(S.RefRank) +
                    "; its host placed by its clock " + "exchange with rank " +
                    std::to_string(S.RefRank) + ": its clock " + human(Abs) +
                    (S.OffsetNs < 0 ? " ahead" : " behind") + ", within +-" +
                    human(S.UncertaintyNs) + " (uncertainty " +
                    std::to_string(S.UncertaintyNs) + " ns)");
  }
  std::set<std::string> Done;
  for (const auto &[Boot, Off] : Placed) {
    Offs[Boot] = Off;
    Done.insert(Boot);
  }
  return Done;
}

} // namespace

std::vector<std::string> alignClocks(std::vector<Trace> &Traces) {
  std::vector<std::string> Notes;
  std::map<std::string, std::vector<size_t>> Groups; // by boot id
  for (size_t I = 0; I < Traces.size(); ++I) {
    if (hasMonotonic(Traces[I]))
      Groups[Traces[I].Process.BootId].push_back(I);
    else
      Notes.push_back(label(Traces[I]) +
                      ": no boot id or monotonic anchor (format 1.0 file); "
                      "placed by its wall clock");
  }
  std::map<std::string, int64_t> Offs; // by boot id
  for (auto &[Boot, Members] : Groups) {
    std::vector<int64_t> Offsets;
    for (size_t I : Members)
      for (const ClockAnchor &A : Traces[I].Anchors)
        Offsets.push_back(A.RealNs - A.MonoNs);
    std::nth_element(Offsets.begin(), Offsets.begin() + Offsets.size() / 2,
                     Offsets.end());
    Offs[Boot] = Offsets[Offsets.size() / 2];
  }
  std::set<std::string> Exchanged =
      placeByExchange(Traces, Groups, Offs, Notes);
  for (auto &[Boot, Members] : Groups) {
    int64_t Off = Offs[Boot];
    for (size_t I : Members) {
      int64_t Shift = placeOnMonotonic(Traces[I], Off);
      if (std::llabs(Shift) >= 1000000 && !Exchanged.count(Boot))
        Notes.push_back(label(Traces[I]) + ": its wall clock was " +
                        std::to_string(std::llabs(Shift) / 1000000) + " ms " +
                        (Shift < 0 ? "ahead of" : "behind") +
                        " the other files of its boot; placed by the "
                        "monotonic clock instead");
    }
  }
  if (Groups.size() > 1 + Exchanged.size())
    Notes.push_back(std::to_string(Groups.size() - Exchanged.size()) +
                    " hosts or boots without a clock exchange: placed "
                    "relative to each other by their wall clocks (as close "
                    "as their NTP sync)");

  // One track per process: a pid seen twice (two hosts, or a reused pid)
  // gets a number above Linux's largest pid.
  std::set<uint64_t> Seen;
  uint64_t Next = uint64_t(1) << 22;
  for (Trace &T : Traces) {
    if (Seen.insert(T.Process.Pid).second)
      continue;
    while (Seen.count(Next))
      ++Next;
    Notes.push_back(label(T) +
                    ": pid already used by another file; shown as pid " +
                    std::to_string(Next));
    T.Process.Pid = Next;
    Seen.insert(Next++);
  }
  std::vector<size_t> Order(Traces.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const ProcessInfo &PA = Traces[A].Process, &PB = Traces[B].Process;
    if (PA.Rank != PB.Rank)
      return PA.Rank < PB.Rank;
    if (PA.StartNs != PB.StartNs)
      return PA.StartNs < PB.StartNs;
    return A < B;
  });
  std::vector<Trace> Sorted;
  Sorted.reserve(Traces.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Traces[I]));
  Traces = std::move(Sorted);
  return Notes;
}

} // namespace sonde::trace
