//===- LiveRates.cpp - Training rates of files being written --------------===//
//
// See LiveRates.h.
//
//===----------------------------------------------------------------------===//

#include "live/LiveRates.h"

#include <algorithm>
#include <tuple>

namespace sonde::trace::live {

LiveRates::Process &LiveRates::of(const FileFollower &F) {
  Process &P = Procs[&F];
  if (!P.Counter) {
    P.Counter = std::make_unique<RateCounter>();
    P.Counter->beginTrace(F.trace());
    P.Sites = F.trace().Sites.size();
  } else if (F.trace().Sites.size() != P.Sites) {
    P.Counter->sitesChanged(); // the file defined sites since
    P.Sites = F.trace().Sites.size();
  }
  return P;
}

void LiveRates::feed(Process &P, std::vector<Event> &Regions) {
  // Program order: by start, the outer (shallower, longer) first on a
  // tie; the site last, so equal keys cannot reorder what matters.
  std::sort(Regions.begin(), Regions.end(), [](const Event &A, const Event &B) {
    return std::make_tuple(A.Ts, A.Level, -A.Dur, A.Site) <
           std::make_tuple(B.Ts, B.Level, -B.Dur, B.Site);
  });
  for (const Event &R : Regions)
    P.Counter->add(R);
  Regions.clear();
}

void LiveRates::event(const FileFollower &F, const Event &E) {
  if (E.Kind != EventKind::Region)
    return;
  Process &P = of(F);
  std::vector<Event> &W = P.Waiting[E.Thread];
  W.push_back(E);
  // A step's record comes after what it holds and the fetch before it.
  bool Step = hasItems(F.trace().site(E.Site));
  AnySteps |= Step;
  if (Step || W.size() >= MaxWaiting)
    feed(P, W);
}

void LiveRates::ended(const FileFollower &F) {
  auto It = Procs.find(&F);
  if (It == Procs.end())
    return;
  for (auto &TW : It->second.Waiting)
    feed(It->second, TW.second);
  It->second.Counter->finish();
}

LiveRateSample LiveRates::tick() {
  LiveRateSample S;
  auto Rate = [](uint64_t Items, int64_t Ns) {
    return Ns > 0 ? double(Items) * 1e9 / double(Ns) : 0.0;
  };
  for (auto &[File, P] : Procs) {
    RateTable T = P.Counter->table();
    S.Steps += T.Run.Steps;
    S.Items += T.Run.Items;
    S.Train += T.Run.Train;
    S.Loading += T.Run.Loading;
    S.Compute += T.Run.Compute;
    uint64_t Items = T.Run.Items - P.LastRun.Items;
    if (T.Run.Steps != P.LastRun.Steps) {
      S.HasInterval = true;
      S.IntervalTrain += Rate(Items, T.Run.TrainNs - P.LastRun.TrainNs);
      S.IntervalLoading += Rate(Items, T.Run.LoadNs - P.LastRun.LoadNs);
      S.IntervalCompute += Rate(Items, T.Run.ComputeNs - P.LastRun.ComputeNs);
    }
    P.LastRun = T.Run;
  }
  if (S.HasInterval) {
    Recent.push_back(S.IntervalTrain);
    if (Recent.size() > RecentSamples)
      Recent.pop_front();
  }
  return S;
}

} // namespace sonde::trace::live
