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

void writeEpochs(JsonOut &J, const std::vector<Trace> &Traces,
                 const std::vector<int64_t> &Self0, int64_t StepIndex) {
  uint32_t StepSite = StepIndex >= 0 ? Traces[0].Events[StepIndex].Site : 0;
  struct EpochRow {
    int64_t Start = INT64_MAX, End = INT64_MIN;
    uint64_t Steps = 0;
    std::map<std::string, int64_t> CatSelf;
    std::map<std::string, double> LastWatch;
  };
  std::map<int64_t, EpochRow> Epochs;
  std::set<std::string> EpochCats, EpochWatches;
  if (!Traces.empty()) {
    const Trace &T = Traces[0];
    for (size_t I = 0; I < T.Events.size(); ++I) {
      const Event &E = T.Events[I];
      const Value *EpochV = argOf(E, "epoch");
      if (!EpochV || !EpochV->isNumber())
        continue;
      const SiteInfo &S = T.site(E.Site);
      EpochRow *Row = &Epochs[static_cast<int64_t>(EpochV->number())];
      Row->Start = std::min(Row->Start, E.Ts);
      Row->End = std::max(Row->End, E.Ts + E.Dur);
      if (E.Kind == EventKind::Region) {
        std::string Cat = S.topCategory();
        Row->CatSelf[Cat] += Self0[I];
        EpochCats.insert(Cat);
        if (E.Site == StepSite)
          ++Row->Steps;
      } else if (E.Kind == EventKind::Watch) {
        double V;
        if (plotValue(S, E.V, V)) {
          Row->LastWatch[S.Name] = V;
          EpochWatches.insert(S.Name);
        }
      }
    }
  }
  J.key("epochs").open();
  J.key("rank").num(Traces.empty() ? int64_t(0) : Traces[0].Process.Rank);
  J.key("step_name")
      .str(StepIndex >= 0 ? Traces[0].site(StepSite).Name : std::string());
  J.key("categories").openArray();
  for (const std::string &C : EpochCats)
    J.item().str(C);
  J.closeArray();
  J.key("watches").openArray();
  for (const std::string &W : EpochWatches)
    J.item().str(W);
  J.closeArray();
  J.key("rows").openArray();
  for (const auto &[Epoch, Row] : Epochs) {
    J.item().open();
    J.key("epoch").num(Epoch);
    J.key("wall_ns").num(Row.End - Row.Start);
    J.key("steps").num(Row.Steps);
    J.key("cats").open();
    for (const auto &[C, V] : Row.CatSelf)
      J.key(C).num(V);
    J.close();
    J.key("last").open();
    for (const auto &[W, V] : Row.LastWatch)
      J.key(W).num(V);
    J.close();
    J.close();
  }
  J.closeArray();
  J.close();
}

} // namespace sonde::trace::report
