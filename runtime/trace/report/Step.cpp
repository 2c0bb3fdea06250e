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

void StepFinder::count(const Event &E) {
  if (E.Kind == EventKind::Region && !E.Unfinished)
    ++Count[E.Site];
}

bool StepFinder::endCount(const Trace &T, std::string &Error) {
  if (Wanted.empty()) {
    for (const auto &[Site, N] : Count)
      Target[Site] = N / 2;
    return true;
  }
  for (const auto &[Site, N] : Count) {
    const SiteInfo &S = T.site(Site);
    if (S.Name == Wanted || S.Category + "/" + S.Name == Wanted) {
      Target[Site] = N / 2;
      return true;
    }
  }
  Error = "no region named '" + Wanted + "' in " + T.Path;
  return false;
}

void StepFinder::candidate(const Event &E) {
  ++Index;
  // Every candidate whose end is ahead: is E nested in it? (As far as the
  // first event that starts at or after its end.)
  for (size_t C = 0; C < Counting.size();) {
    Candidate &K = *Counting[C];
    if (E.Ts >= K.E.Ts + K.E.Dur) {
      Counting[C] = Counting.back();
      Counting.pop_back();
      continue;
    }
    if (E.Kind == EventKind::Region && E.Thread == K.E.Thread &&
        E.Level > K.E.Level)
      ++K.Children;
    ++C;
  }
  if (E.Kind != EventKind::Region || E.Unfinished)
    return;
  auto It = Target.find(E.Site);
  if (It != Target.end() && Seen[E.Site]++ == It->second) {
    Candidate &K = Cands[E.Site];
    K.Index = Index;
    K.E = E;
    Counting.push_back(&K);
  }
}

bool StepFinder::done() const {
  return Cands.size() == Target.size() && Counting.empty();
}

const StepFinder::Candidate *StepFinder::chosen() const {
  if (!Wanted.empty())
    return Cands.empty() ? nullptr : &Cands.begin()->second;
  const Candidate *Best = nullptr, *BestAny = nullptr;
  uint64_t BestCount = 0, BestAnyCount = 0;
  for (const auto &[Site, K] : Cands) {
    uint64_t N = Count.at(Site);
    if (N > BestAnyCount) {
      BestAnyCount = N;
      BestAny = &K;
    }
    if (N >= 2 && K.Children >= 2 && N > BestCount) {
      BestCount = N;
      Best = &K;
    }
  }
  return Best ? Best : BestAny;
}

int64_t StepFinder::index() const {
  const Candidate *K = chosen();
  return K ? K->Index : -1;
}

const Event &StepFinder::step() const {
  static const Event None{};
  const Candidate *K = chosen();
  return K ? K->E : None;
}

void writeStep(JsonOut &J, const Trace &T, const StepFinder &Finder) {
  J.key("step");
  int64_t StepIndex = Finder.index();
  if (StepIndex < 0) {
    J.raw("null");
    return;
  }
  const Event &Step = Finder.step();
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
  int64_t Index = -1;
  for (const Event &E : events(T)) {
    ++Index;
    if (E.Ts >= To || N >= MaxSpans)
      break;
    if (E.Kind == EventKind::Region && E.Ts + E.Dur <= From)
      continue;
    if (E.Kind != EventKind::Region && E.Ts < From)
      continue;
    // Ancestors span the whole window: the heading names the step.
    if (E.Kind == EventKind::Region && E.Ts <= From && E.Ts + E.Dur >= To &&
        Index != StepIndex)
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
