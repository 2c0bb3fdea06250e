//===- Epochs.cpp - The per-epoch table of `sonde report` -----------------===//
//
// One row per epoch (the `epoch` arg in force) of the first process (rank
// 0: ranks run the same epochs, and their sums would hide which one is
// slow): its wall time, its steps, self time by category and the last value
// of each plotted watch.
//
//===----------------------------------------------------------------------===//

#include "ReportData.h"

#include <algorithm>
#include <map>
#include <set>

namespace sonde::trace::report {

void EpochTable::add(const Event &E) {
  // A region's self time goes to its epoch's row once it is known. Every
  // region counts for its parent's self time, with an epoch or not.
  auto Done = [](int64_t *Into, int64_t Ns) {
    if (Into)
      *Into += Ns;
  };
  const Value *EpochV = argOf(E, "epoch");
  if (!EpochV || !EpochV->isNumber()) {
    Self.add(E, nullptr, Done, outOfOrder(*Current));
    return;
  }
  const SiteInfo &S = Current->site(E.Site);
  Row &R = Rows[static_cast<int64_t>(EpochV->number())];
  R.Start = std::min(R.Start, E.Ts);
  R.End = std::max(R.End, E.Ts + E.Dur);
  if (E.Kind == EventKind::Region) {
    std::string Cat = S.topCategory();
    Self.add(E, &R.CatSelf[Cat], Done, outOfOrder(*Current));
    Cats.insert(Cat);
    ++R.Regions[E.Site];
  } else if (E.Kind == EventKind::Watch) {
    double V;
    if (plotValue(S, E.V, V)) {
      R.LastWatch[S.Name] = V;
      WatchNames.insert(S.Name);
    }
  }
}

void EpochTable::endTrace() {
  Self.finish([](int64_t *Into, int64_t Ns) {
    if (Into)
      *Into += Ns;
  });
}

void EpochTable::write(JsonOut &J, const std::vector<Trace> &Traces,
                       const StepFinder &Step) {
  int64_t StepIndex = Step.index();
  uint32_t StepSite = StepIndex >= 0 ? Step.step().Site : 0;
  J.key("epochs").open();
  J.key("rank").num(Traces.empty() ? int64_t(0) : Traces[0].Process.Rank);
  J.key("step_name")
      .str(StepIndex >= 0 ? Traces[0].site(StepSite).Name : std::string());
  J.key("categories").openArray();
  for (const std::string &C : Cats)
    J.item().str(C);
  J.closeArray();
  J.key("watches").openArray();
  for (const std::string &W : WatchNames)
    J.item().str(W);
  J.closeArray();
  J.key("rows").openArray();
  for (const auto &[Epoch, R] : Rows) {
    J.item().open();
    J.key("epoch").num(Epoch);
    J.key("wall_ns").num(R.End - R.Start);
    auto Steps = R.Regions.find(StepSite);
    J.key("steps").num(
        StepIndex >= 0 && Steps != R.Regions.end() ? Steps->second : 0);
    J.key("cats").open();
    for (const auto &[C, V] : R.CatSelf)
      J.key(C).num(V);
    J.close();
    J.key("last").open();
    for (const auto &[W, V] : R.LastWatch)
      J.key(W).num(V);
    J.close();
    J.close();
  }
  J.closeArray();
  J.close();
}

} // namespace sonde::trace::report
