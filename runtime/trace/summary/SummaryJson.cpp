//===- SummaryJson.cpp - `sonde summary --json` ---------------------------===//
//
// The summary's tables as one JSON object (docs/exports.md): regions with
// their percentiles, watches, API calls, state sites, instants, the
// processes and the total of dropped records.
//
//===----------------------------------------------------------------------===//

#include "SummaryStats.h"

#include "Export.h"
#include "Json.h"
#include "ProcessFields.h"
#include "Ranks.h"

namespace sonde::trace {

using namespace summary;

void printSummaryJson(const std::vector<Trace> &Traces, std::FILE *Out) {
  Totals T = collect(Traces);
  JsonOut J(Out);
  J.open();
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
