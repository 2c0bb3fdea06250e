//===- Step.cpp - One step, for `sonde report` ----------------------------===//
//
// The report's step timeline: the region that stands for one step (given
// with --step, else chosen: the most frequent region whose instances hold
// other regions), and every span, instant and watch inside one instance of
// it, on the first process's timeline.
//
//===----------------------------------------------------------------------===//

#include "ReportData.h"

#include <map>

namespace sonde::trace::report {
namespace {

constexpr size_t MaxSpans = 3000; ///< spans in the step timeline

} // namespace

/// The region that stands for "one step": given by name, else the most
/// frequent region of the first process whose instances contain other
/// regions (a loop body holding forward, backward, step), else the most
/// frequent region.
int64_t chooseStep(const Trace &T, const std::string &Wanted,
                   std::string &Error) {
  std::map<uint32_t, std::vector<size_t>> BySite;
  for (size_t I = 0; I < T.Events.size(); ++I)
    if (T.Events[I].Kind == EventKind::Region && !T.Events[I].Unfinished)
      BySite[T.Events[I].Site].push_back(I);
  if (!Wanted.empty()) {
    for (const auto &[Site, List] : BySite) {
      const SiteInfo &S = T.site(Site);
      if (S.Name == Wanted || S.Category + "/" + S.Name == Wanted)
        return static_cast<int64_t>(List[List.size() / 2]);
    }
    Error = "no region named '" + Wanted + "' in " + T.Path;
    return -1;
  }
  int64_t Best = -1, BestAny = -1;
  size_t BestCount = 0, BestAnyCount = 0;
  for (const auto &[Site, List] : BySite) {
    size_t Mid = List[List.size() / 2];
    const Event &E = T.Events[Mid];
    size_t Children = 0;
    for (size_t J = Mid + 1; J < T.Events.size(); ++J) {
      const Event &C = T.Events[J];
      if (C.Ts >= E.Ts + E.Dur)
        break;
      if (C.Kind == EventKind::Region && C.Thread == E.Thread &&
          C.Level > E.Level)
        ++Children;
    }
    if (List.size() > BestAnyCount) {
      BestAnyCount = List.size();
      BestAny = static_cast<int64_t>(Mid);
    }
    if (List.size() >= 2 && Children >= 2 && List.size() > BestCount) {
      BestCount = List.size();
      Best = static_cast<int64_t>(Mid);
    }
  }
  return Best >= 0 ? Best : BestAny;
}

void writeStep(JsonOut &J, const Trace &T, int64_t StepIndex) {
  J.key("step");
  if (StepIndex < 0) {
    J.raw("null");
    return;
  }
  const Event &Step = T.Events[StepIndex];
  const SiteInfo &S = T.site(Step.Site);
  int64_t From = Step.Ts, To = Step.Ts + Step.Dur;
  J.open();
  J.key("cat").str(S.topCategory());
  J.key("name").str(S.Name);
  J.key("pid").num(T.Process.Pid);
  J.key("start_ns").num(From);
  J.key("dur_ns").num(Step.Dur);
  J.key("args").args(*Step.A);
  if (Step.Iter >= 0)
    J.key("iter").num(Step.Iter);
  J.key("spans").openArray();
  size_t N = 0;
  for (const Event &E : T.Events) {
    if (E.Ts >= To || N >= MaxSpans)
      break;
    if (E.Kind == EventKind::Region && E.Ts + E.Dur <= From)
      continue;
    if (E.Kind != EventKind::Region && E.Ts < From)
      continue;
    // Ancestors span the whole window: the heading names the step.
    if (E.Kind == EventKind::Region && E.Ts <= From && E.Ts + E.Dur >= To &&
        &E != &Step)
      continue;
    const SiteInfo &ES = T.site(E.Site);
    J.item().open();
    J.key("name").str(eventName(T, E));
    J.key("cat").str(ES.topCategory());
    J.key("kind").str(E.Kind == EventKind::Region    ? "region"
                      : E.Kind == EventKind::Instant ? "instant"
                                                     : "watch");
    J.key("t").num(E.Ts - From);
    J.key("d").num(E.Kind == EventKind::Region ? E.Dur : int64_t(0));
    J.key("level").num(static_cast<uint64_t>(E.Level));
    J.key("tid").num(T.tid(E.Thread));
    J.close();
    ++N;
  }
  J.closeArray();
  J.close();
}

} // namespace sonde::trace::report
