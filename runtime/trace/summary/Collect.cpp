//===- Collect.cpp - Counting a trace for `sonde summary` -----------------===//
//
// collect(): one pass over every event of every trace, each site's row
// found through a per-trace array after its first event; an API call's pre
// record waits for its post or error record to give the call's duration.
// Also percentile(), shared with `sonde report`.
//
//===----------------------------------------------------------------------===//

#include "SummaryStats.h"

#include "Export.h"
#include "SelfTime.h"
#include "exports/ExportCommon.h"

#include <algorithm>
#include <tuple>

namespace sonde::trace {

int64_t percentile(const std::vector<int64_t> &Durs, double P) {
  if (Durs.empty())
    return 0;
  size_t Rank = static_cast<size_t>(std::ceil(P * Durs.size()));
  return Durs[std::min(Durs.size(), std::max<size_t>(Rank, 1)) - 1];
}

namespace summary {
namespace {

/// (name, name) -> row of one table of Totals.
using RowIndex = std::map<std::pair<std::string, std::string>, size_t>;
constexpr size_t NoRow = ~size_t(0);

/// The row of `Rows` for a site: `Slot` (the site's entry in the per-trace
/// site table) finds it after the site's first event; at that first event
/// it is looked up by (`K1`, `K2`), which sites of other traces share, and
/// made by `Make` when new.
template <class Row, class MakeRow>
Row &rowOf(std::vector<Row> &Rows, RowIndex &Index, size_t &Slot,
           const std::string &K1, const std::string &K2, MakeRow Make) {
  if (Slot == NoRow) {
    auto [It, New] = Index.emplace(std::make_pair(K1, K2), Rows.size());
    if (New)
      Rows.push_back(Make());
    Slot = It->second;
  }
  return Rows[Slot];
}

/// A pre record's call id -> (its stats, when it started); per trace, since
/// call ids are per process.
using OpenCalls = std::map<uint64_t, std::pair<size_t, int64_t>>;

void addApi(Totals &T, std::vector<size_t> &BySite, RowIndex &Index,
            OpenCalls &Open, const SiteInfo &S, const Event &E) {
  size_t &I = BySite[E.Site];
  ApiStats &A = rowOf(T.Apis, Index, I, S.Name, S.Function, [&] {
    ApiStats New;
    New.Function = S.Name;
    New.Caller = S.Function;
    return New;
  });
  const std::string *Phase = strField(E.V, "phase");
  if (Phase && *Phase == "pre") {
    ++A.Calls;
    Open[apiCall(E.V)] = {I, E.Ts};
    return;
  }
  auto It = Open.find(apiCall(E.V));
  if (It == Open.end() || It->second.first != I)
    return; // the pre record was lost (a torn file) or is not this API's
  int64_t Dur = std::max<int64_t>(0, E.Ts - It->second.second);
  Open.erase(It);
  A.Durs.push_back(Dur);
  A.Total += Dur;
  if (Phase && *Phase == "error")
    ++A.Errors;
}

void addState(Totals &T, std::vector<size_t> &BySite, RowIndex &Index,
              const SiteInfo &S, const Event &E) {
  StateStats &St =
      rowOf(T.States, Index, BySite[E.Site], S.Name, S.Function, [&] {
        StateStats New;
        New.Name = S.Name;
        New.Func = S.Function;
        return New;
      });
  ++St.Records;
  const std::string *Param = strField(E.V, "param");
  ++St.PerParam[Param ? *Param : std::string()];
  St.Last = E.V;
}

} // namespace

const std::string *strField(const Value &V, const char *Key) {
  const Value *F = V.get(Key);
  return F && F->K == Value::Kind::String ? &F->str() : nullptr;
}

const WatchStats *lossWatch(const Totals &T) {
  for (const WatchStats &W : T.Watches)
    if (W.Name == "loss")
      return &W;
  return nullptr;
}

Totals collect(const std::vector<Trace> &Traces, unsigned WarmupSteps) {
  Totals T;
  RowIndex ApiIndex, StateIndex, RegionIndex, WatchIndex, AlarmIndex;
  RateCounter Rates(WarmupSteps);
  SelfTimeCounter SelfTime;
  for (const Trace &Tr : Traces) {
    Rates.beginTrace(Tr);
    SelfTime.beginTrace(Tr);
    // Site id -> stats index, so the per-event work is an array lookup.
    std::vector<size_t> BySite(Tr.Sites.size(), NoRow);
    std::vector<size_t> AlarmBySite(Tr.Sites.size(), NoRow);
    T.Events += eventCount(Tr);
    T.Threads += Tr.Threads.size();
    T.Dropped += Tr.Process.Dropped;
    OpenCalls Open;
    for (const Event &E : events(Tr)) {
      const SiteInfo &S = Tr.site(E.Site);
      if (E.Kind == EventKind::Region) { // all that rates and self time count
        Rates.add(E);
        SelfTime.add(E);
      }
      if (E.Kind == EventKind::Watch && S.Kind == SiteKind::Api) {
        addApi(T, BySite, ApiIndex, Open, S, E);
        continue;
      }
      if (E.Kind == EventKind::Watch && S.Kind == SiteKind::State) {
        addState(T, BySite, StateIndex, S, E);
        continue;
      }
      switch (E.Kind) {
      case EventKind::Region: {
        RegionStats &R = rowOf(
            T.Regions, RegionIndex, BySite[E.Site], S.Category, S.Name, [&] {
              return RegionStats{S.topCategory(), S.Category, S.Name, {}, 0, 0};
            });
        R.Durs.push_back(E.Dur);
        R.Total += E.Dur;
        R.Unfinished += E.Unfinished;
        break;
      }
      case EventKind::Instant:
        if (E.Alarm) {
          // A watch site's own row is its watch's: alarms have their own.
          AlarmStats &A = rowOf(T.Alarms, AlarmIndex, AlarmBySite[E.Site],
                                S.Name, S.Function, [&] {
                                  AlarmStats New;
                                  New.Name = S.Name;
                                  New.Func = S.Function;
                                  New.File = S.File;
                                  New.Line = S.Line;
                                  New.First = E.V;
                                  New.FirstArgs = *E.A;
                                  return New;
                                });
          ++A.Count;
          break;
        }
        ++T.Instants[S.Category + "/" + eventName(Tr, E)];
        break;
      case EventKind::Watch: {
        WatchStats &W = rowOf(T.Watches, WatchIndex, BySite[E.Site], S.Name,
                              S.Function, [&] {
                                WatchStats New;
                                New.Name = S.Name;
                                New.Func = S.Function;
                                return New;
                              });
        ++W.Count;
        if (!W.First)
          W.First = E.V;
        if (W.Last && !Value::holdsShared(W.Last->K) &&
            !Value::holdsShared(E.V.K)) { // a scalar over a scalar
          W.Last->K = E.V.K;
          W.Last->U = E.V.U;
        } else {
          W.Last = E.V;
        }
        if (const Value *Scalar = E.V.isNumber() ? &E.V : scalarOf(E.V)) {
          W.Numeric = true;
          double V = Scalar->number();
          if (!std::isnan(V)) {
            W.Min = std::min(W.Min, V);
            W.Max = std::max(W.Max, V);
          }
        }
        break;
      }
      }
    }
    for (const auto &C : Open)
      ++T.Apis[C.second.first].Unfinished;
  }
  Rates.finish();
  T.Rates = Rates.table();
  T.ByCategory = SelfTime.byCategory();
  std::sort(T.Apis.begin(), T.Apis.end(),
            [](const ApiStats &A, const ApiStats &B) {
              return std::tie(B.Total, A.Function, A.Caller) <
                     std::tie(A.Total, B.Function, B.Caller);
            });
  std::sort(T.Regions.begin(), T.Regions.end(),
            [](const RegionStats &A, const RegionStats &B) {
              return std::tie(B.Total, A.Category, A.Name) <
                     std::tie(A.Total, B.Category, B.Name);
            });
  return T;
}

} // namespace summary
} // namespace sonde::trace
