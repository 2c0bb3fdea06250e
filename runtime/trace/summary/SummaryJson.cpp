//===- SummaryJson.cpp - `sonde summary --json` ---------------------------===//
//
// The summary's tables as one JSON object (docs/exports.md): the training
// rates (docs/rates.md), self time per category, regions with their
// percentiles, watches, API calls, state sites, instants, the processes and
// the total of dropped records.
//
//===----------------------------------------------------------------------===//

#include "SummaryStats.h"

#include "Export.h"
#include "Json.h"
#include "ProcessFields.h"
#include "Ranks.h"

namespace sonde::trace {

using namespace summary;

namespace {

/// One row of rates: its sums, and items per second (null when that time
/// is 0).
void rateRow(JsonOut &J, const RateRow &R) {
  J.open();
  if (!R.Label.empty())
    J.key("epoch").str(R.Label);
  J.key("steps").num(R.Steps);
  J.key("items").num(R.Items);
  J.key("train_ns").num(R.TrainNs);
  J.key("loading_ns").num(R.LoadNs);
  J.key("compute_ns").num(R.ComputeNs);
  auto Rate = [&](const char *Key, double V, int64_t Ns) {
    if (Ns > 0)
      J.key(Key).num(V);
    else
      J.key(Key).raw("null");
  };
  Rate("train", R.Train, R.TrainNs);
  Rate("loading", R.Loading, R.LoadNs);
  Rate("compute", R.Compute, R.ComputeNs);
  J.close();
}

} // namespace

void summary::writeRates(JsonOut &J, const RateTable &R) {
  J.key("rates").open();
  J.key("warmup_steps").num(static_cast<uint64_t>(R.WarmupSteps));
  J.key("steps").num(R.steps());
  J.key("unfinished").num(R.Unfinished);
  J.key("warmup");
  rateRow(J, R.Warmup);
  J.key("run");
  rateRow(J, R.Run);
  J.key("epochs").openArray();
  for (const RateRow &E : R.Epochs) {
    J.item();
    rateRow(J, E);
  }
  J.closeArray();
  J.close();
}

void printSummaryJson(const std::vector<Trace> &Traces, std::FILE *Out,
                      unsigned WarmupSteps) {
  Totals T = collect(Traces, WarmupSteps);
  JsonOut J(Out);
  J.open();
  writeRates(J, T.Rates);
  J.key("self_ns_by_category").open();
  for (const auto &[Cat, Ns] : T.ByCategory)
    J.key(Cat).num(Ns);
  J.close();
  J.key("regions").openArray();
  for (const RegionStats &R : T.Regions) {
    J.item().open();
    J.key("cat").str(R.Cat);
    J.key("category").str(R.Category);
    J.key("name").str(R.Name);
    J.key("count").num(static_cast<uint64_t>(R.Durs.size()));
    J.key("total_ns").num(R.Total);
    J.key("mean_ns").num(R.Total / static_cast<int64_t>(R.Durs.size()));
    J.key("p50_ns").num(percentile(R.Durs, 0.5));
    J.key("p99_ns").num(percentile(R.Durs, 0.99));
    // The percentiles' bound of relative error: 0 while exact.
    J.key("percentile_error").num(percentileError(R.Durs));
    J.key("unfinished").num(R.Unfinished);
    J.close();
  }
  J.closeArray();
  J.key("watches").openArray();
  for (const WatchStats &W : T.Watches) {
    J.item().open();
    J.key("name").str(W.Name);
    J.key("func").str(W.Func);
    J.key("count").num(W.Count);
    J.key("first").value(*W.First);
    J.key("last").value(*W.Last);
    if (W.Numeric && W.Min <= W.Max) {
      J.key("min").num(W.Min);
      J.key("max").num(W.Max);
    } else {
      J.key("min").raw("null");
      J.key("max").raw("null");
    }
    J.close();
  }
  J.closeArray();
  J.key("apis").openArray();
  for (const ApiStats &A : T.Apis) {
    J.item().open();
    J.key("function").str(A.Function);
    J.key("from").str(A.Caller);
    J.key("calls").num(A.Calls);
    J.key("errors").num(A.Errors);
    J.key("unfinished").num(A.Unfinished);
    J.key("total_ns").num(A.Total);
    J.key("p50_ns").num(percentile(A.Durs, 0.5));
    J.key("p99_ns").num(percentile(A.Durs, 0.99));
    J.key("percentile_error").num(percentileError(A.Durs));
    J.close();
  }
  J.closeArray();
  J.key("state").openArray();
  for (const StateStats &St : T.States) {
    J.item().open();
    J.key("name").str(St.Name);
    J.key("func").str(St.Func);
    J.key("records").num(St.Records);
    J.key("params").open();
    for (const auto &P : St.PerParam)
      J.key(P.first).num(P.second);
    J.close();
    J.close();
  }
  J.closeArray();
  J.key("alarms").openArray();
  for (const AlarmStats &A : T.Alarms) {
    J.item().open();
    J.key("name").str(A.Name);
    J.key("func").str(A.Func);
    J.key("file").str(A.File);
    J.key("line").num(static_cast<uint64_t>(A.Line));
    J.key("check").str("finite");
    J.key("count").num(A.Count);
    J.key("first").value(A.First);
    J.key("first_args").args(A.FirstArgs);
    J.close();
  }
  J.closeArray();
  J.key("instants").open();
  for (const auto &I : T.Instants)
    J.key(I.first).num(I.second);
  J.close();
  J.key("processes").openArray();
  for (const Trace &Tr : Traces) {
    J.item().open();
    processFields(J, Tr,
                  {ProcessField::Pid, ProcessField::Rank, ProcessField::Program,
                   ProcessField::How, ProcessField::Events,
                   ProcessField::Dropped, ProcessField::Complete});
    J.close();
  }
  J.closeArray();
  J.key("dropped").num(T.Dropped);
  ranks::writeRanksJson(J, ranks::rankTable(Traces));
  J.close().raw("\n");
}

} // namespace sonde::trace
