//===- SummaryText.cpp - `sonde summary`: where the time went -------------===//
//
// The summary as text: the processes and how they ended, time by
// category, then a table per kind of site (regions, watches, API calls,
// model state, instants), with durations in human units.
//
//===----------------------------------------------------------------------===//

#include "SummaryStats.h"

#include "Export.h"
#include "ProcessFields.h"

#include <algorithm>

namespace sonde::trace {
namespace {

using namespace summary;

std::string human(int64_t Ns) {
  char B[32];
  double V = static_cast<double>(Ns);
  if (Ns >= 1000000000)
    std::snprintf(B, sizeof B, "%.3f s", V / 1e9);
  else if (Ns >= 1000000)
    std::snprintf(B, sizeof B, "%.3f ms", V / 1e6);
  else if (Ns >= 1000)
    std::snprintf(B, sizeof B, "%.3f us", V / 1e3);
  else
    std::snprintf(B, sizeof B, "%lld ns", static_cast<long long>(Ns));
  return B;
}

std::string shortValue(const Value &V) {
  char B[64];
  switch (V.K) {
  case Value::Kind::Int:
    return std::to_string(V.I);
  case Value::Kind::UInt:
    return std::to_string(V.U);
  case Value::Kind::Float:
    std::snprintf(B, sizeof B, "%.6g", V.F);
    return B;
  case Value::Kind::Bool:
    return V.B ? "true" : "false";
  case Value::Kind::String:
    return V.str().size() > 24 ? V.str().substr(0, 21) + "..." : V.str();
  case Value::Kind::Object:
    if (const Value *Shape = V.get("shape")) {
      std::string S = "[";
      for (size_t I = 0; I < Shape->items().size(); ++I)
        S += (I ? "," : "") + shortValue(Shape->items()[I]);
      return S + "]";
    }
    return "{...}";
  case Value::Kind::Array:
    return "[" + std::to_string(V.items().size()) + " items]";
  default:
    return "-";
  }
}

/// A watched value in the watch table: a one-element tensor by its value,
/// anything else as shortValue shows it.
std::string watchText(const Value &V) {
  const Value *Scalar = scalarOf(V);
  return shortValue(Scalar ? *Scalar : V);
}

} // namespace

void printSummary(const std::vector<Trace> &Traces, std::FILE *Out) {
  Totals T = collect(Traces);
  std::fprintf(Out, "%zu process%s, %llu thread%s, %llu events, %llu dropped\n",
               Traces.size(), Traces.size() == 1 ? "" : "es",
               (unsigned long long)T.Threads, T.Threads == 1 ? "" : "s",
               (unsigned long long)T.Events, (unsigned long long)T.Dropped);
  for (const Trace &Tr : Traces) {
    const ProcessInfo &P = Tr.Process;
    std::fprintf(Out, "  %s pid %llu rank %lld: %s, %s%s\n", P.Program.c_str(),
                 (unsigned long long)P.Pid, (long long)P.Rank,
                 howEnded(P, Audience::Person).c_str(),
                 human(P.EndNs - P.StartNs).c_str(),
                 Tr.Complete ? "" : " (torn file)");
  }
  if (!T.ByCategory.empty()) {
    std::fprintf(Out, "\ntime by category (nested regions count in each)\n");
    std::vector<std::pair<std::string, int64_t>> Cats(T.ByCategory.begin(),
                                                      T.ByCategory.end());
    std::sort(Cats.begin(), Cats.end(),
              [](const auto &A, const auto &B) { return A.second > B.second; });
    for (const auto &C : Cats)
      std::fprintf(Out, "  %-16s %14s\n", C.first.c_str(),
                   human(C.second).c_str());
  }
  if (!T.Regions.empty()) {
    std::fprintf(Out, "\n%-16s %-22s %9s %13s %12s %12s %12s\n", "category",
                 "name", "count", "total", "mean", "p50", "p99");
    for (const RegionStats &R : T.Regions) {
      std::fprintf(Out, "%-16s %-22s %9zu %13s %12s %12s %12s", R.Cat.c_str(),
                   R.Name.c_str(), R.Durs.size(), human(R.Total).c_str(),
                   human(R.Total / static_cast<int64_t>(R.Durs.size())).c_str(),
                   human(percentile(R.Durs, 0.5)).c_str(),
                   human(percentile(R.Durs, 0.99)).c_str());
      if (R.Unfinished)
        std::fprintf(Out, "  (%llu unfinished)",
                     (unsigned long long)R.Unfinished);
      std::fprintf(Out, "\n");
    }
  }
  if (!T.Watches.empty()) {
    std::fprintf(Out, "\n%-16s %-22s %9s %13s %12s %12s %12s\n", "watch",
                 "function", "count", "first", "last", "min", "max");
    for (const WatchStats &W : T.Watches) {
      std::string Min = "-", Max = "-";
      if (W.Numeric && W.Min <= W.Max) {
        Value A, B;
        A.K = B.K = Value::Kind::Float;
        A.F = W.Min;
        B.F = W.Max;
        Min = shortValue(A);
        Max = shortValue(B);
      }
      std::fprintf(Out, "%-16s %-22s %9llu %13s %12s %12s %12s\n",
                   W.Name.c_str(), W.Func.c_str(), (unsigned long long)W.Count,
                   watchText(*W.First).c_str(), watchText(*W.Last).c_str(),
                   Min.c_str(), Max.c_str());
    }
  }
  if (!T.Apis.empty()) {
    int W = 22;
    for (const ApiStats &A : T.Apis)
      W = std::max(W, static_cast<int>(A.Function.size()));
    std::fprintf(Out, "\n%-*s %-22s %9s %7s %13s %12s %12s\n", W, "api call",
                 "from", "calls", "errors", "total", "p50", "p99");
    for (const ApiStats &A : T.Apis) {
      std::fprintf(Out, "%-*s %-22s %9llu %7llu %13s %12s %12s", W,
                   A.Function.c_str(), A.Caller.c_str(),
                   (unsigned long long)A.Calls, (unsigned long long)A.Errors,
                   human(A.Total).c_str(),
                   human(percentile(A.Durs, 0.5)).c_str(),
                   human(percentile(A.Durs, 0.99)).c_str());
      if (A.Unfinished)
        std::fprintf(Out, "  (%llu unfinished)",
                     (unsigned long long)A.Unfinished);
      std::fprintf(Out, "\n");
    }
  }
  if (!T.States.empty()) {
    std::fprintf(Out, "\n%-16s %-22s %9s %9s %9s  %s\n", "state", "function",
                 "records", "params", "snapshots", "last");
    for (const StateStats &St : T.States) {
      uint64_t Snapshots = 0;
      for (const auto &P : St.PerParam)
        Snapshots = std::max(Snapshots, P.second);
      std::string Last = "-";
      if (St.Last) {
        const std::string *Param = strField(*St.Last, "param");
        const Value *Norm = St.Last->get("norm");
        Last = (Param ? *Param : std::string("?")) + " " + shortValue(*St.Last);
        if (Norm && Norm->isNumber()) {
          char B[48];
          std::snprintf(B, sizeof B, " norm %.6g", Norm->number());
          Last += B;
        }
      }
      std::fprintf(Out, "%-16s %-22s %9llu %9zu %9llu  %s\n", St.Name.c_str(),
                   St.Func.c_str(), (unsigned long long)St.Records,
                   St.PerParam.size(), (unsigned long long)Snapshots,
                   Last.c_str());
    }
  }
  if (!T.Instants.empty()) {
    std::fprintf(Out, "\n%-39s %9s\n", "instant", "count");
    for (const auto &I : T.Instants)
      std::fprintf(Out, "%-39s %9llu\n", I.first.c_str(),
                   (unsigned long long)I.second);
  }
}

} // namespace sonde::trace
