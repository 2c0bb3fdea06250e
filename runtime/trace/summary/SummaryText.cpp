//===- SummaryText.cpp - `sonde summary`: where the time went -------------===//
//
// The summary as text. First what a person wants first: steps done, the
// training rates (items/s), the loss first -> last and the self time per
// category; then the processes and how they ended, the rates per epoch,
// and a table per kind of site (regions, watches, API calls, model state,
// instants), with durations in human units.
//
//===----------------------------------------------------------------------===//

#include "SummaryStats.h"

#include "Export.h"
#include "ProcessFields.h"
#include "Ranks.h"
#include "TextOut.h"

#include <algorithm>

namespace sonde::trace {
namespace {

using namespace summary;

/// A string as printf's "%s" of its c_str() shows it: up to a NUL byte.
std::string_view cstr(const std::string &S) { return S.c_str(); }

std::string shortValue(const Value &V) {
  switch (V.K) {
  case Value::Kind::Int:
    return fmt::format("{}", V.I);
  case Value::Kind::UInt:
    return fmt::format("{}", V.U);
  case Value::Kind::Float:
    return fmt::format("{:.6g}", V.F);
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
    return fmt::format("[{} items]", V.items().size());
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

/// One table row: each cell padded to its width in bytes, left-aligned
/// when the width is negative (printf's "%-16s"), cells one space apart.
void row(TextOut &Out,
         std::initializer_list<std::pair<int, std::string_view>> Cells) {
  bool First = true;
  for (const auto &[Width, Text] : Cells) {
    if (!First)
      Out.put(' ');
    First = false;
    if (Width < 0)
      Out.left(Text, size_t(-Width));
    else
      Out.right(Text, size_t(Width));
  }
}

/// Items per second, or `-` when no time of that kind was recorded.
std::string rateText(double R, int64_t Ns) {
  return Ns > 0 ? fmt::format("{:.1f}", R) : std::string("-");
}

/// The first lines: steps, items/s, loss, time per category.
void headline(TextOut &Text, const Totals &T) {
  const RateTable &R = T.Rates;
  if (R.steps() == 0) {
    Text.raw("steps      none counted: no region has an item count (a probe's "
             "'items:', docs/rates.md)\n");
  } else {
    Text.print("steps      {} done, {} items", R.steps(),
               R.Warmup.Items + R.Run.Items);
    if (R.Warmup.Steps)
      Text.print(" (warm-up: the first {} of each process, shown apart)",
                 R.WarmupSteps);
    Text.put('\n');
    const RateRow &Row = R.Run.Steps ? R.Run : R.Warmup;
    Text.print("items/s    train {} | loading {} | compute {}{}\n",
               rateText(Row.Train, Row.TrainNs),
               rateText(Row.Loading, Row.LoadNs),
               rateText(Row.Compute, Row.ComputeNs),
               R.Run.Steps ? "" : " (warm-up steps only)");
  }
  if (const WatchStats *Loss = lossWatch(T))
    Text.print("loss       {} -> {} ({} records)\n", watchText(*Loss->First),
               watchText(*Loss->Last), Loss->Count);
  if (!T.ByCategory.empty()) {
    Text.raw("time       ");
    for (size_t I = 0; I < T.ByCategory.size(); ++I)
      Text.print("{}{} {}", I ? " | " : "", cstr(T.ByCategory[I].first),
                 humanDuration(T.ByCategory[I].second));
    Text.raw(" (self time)\n");
  }
  for (const AlarmStats &A : T.Alarms) {
    Text.print(
        "alarm      {} in {} ({}:{}): {} non-finite value{}, the first {}",
        cstr(A.Name), cstr(A.Func), cstr(A.File), A.Line, A.Count,
        A.Count == 1 ? "" : "s", shortValue(A.First));
    for (const auto &KV : A.FirstArgs)
      Text.print(" {} {}", cstr(KV.first), shortValue(KV.second));
    Text.put('\n');
  }
  if (R.Unfinished)
    Text.print("           ({} step{} left open at exit, not counted)\n",
               R.Unfinished, R.Unfinished == 1 ? "" : "s");
  if (R.NotCounts)
    Text.print("           ({} item count{} not a number, not counted)\n",
               R.NotCounts, R.NotCounts == 1 ? "" : "s");
}

/// The rates per epoch, of the warm-up and of the run.
void rateTable(TextOut &Text, const RateTable &R) {
  Text.put('\n');
  row(Text, {{-16, "rates (items/s)"},
             {9, "steps"},
             {12, "items"},
             {12, "train"},
             {12, "loading"},
             {12, "compute"}});
  Text.put('\n');
  auto Line = [&](const std::string &Name, const RateRow &Row) {
    row(Text, {{-16, cstr(Name)},
               {9, fmt::format("{}", Row.Steps)},
               {12, fmt::format("{}", Row.Items)},
               {12, rateText(Row.Train, Row.TrainNs)},
               {12, rateText(Row.Loading, Row.LoadNs)},
               {12, rateText(Row.Compute, Row.ComputeNs)}});
    Text.put('\n');
  };
  if (R.Warmup.Steps)
    Line(fmt::format("warm-up ({})", R.WarmupSteps), R.Warmup);
  for (const RateRow &E : R.Epochs)
    Line("epoch " + E.Label, E);
  if (R.Run.Steps)
    Line("run", R.Run);
}

} // namespace

void printSummary(const std::vector<Trace> &Traces, std::FILE *Out,
                  unsigned WarmupSteps) {
  Totals T = collect(Traces, WarmupSteps);
  TextOut Text(Out);
  headline(Text, T);
  Text.put('\n');
  Text.print("{} process{}, {} thread{}, {} events, {} dropped\n",
             Traces.size(), Traces.size() == 1 ? "" : "es", T.Threads,
             T.Threads == 1 ? "" : "s", T.Events, T.Dropped);
  for (const Trace &Tr : Traces) {
    const ProcessInfo &P = Tr.Process;
    Text.print("  {} pid {} rank {}: {}, {}{}\n", cstr(P.Program), P.Pid,
               P.Rank, cstr(howEnded(P, Audience::Person)),
               humanDuration(P.EndNs - P.StartNs),
               Tr.Complete ? "" : " (torn file)");
  }
  ranks::printRanks(Text, ranks::rankTable(Traces));
  if (T.Rates.steps())
    rateTable(Text, T.Rates);
  if (!T.Regions.empty()) {
    Text.put('\n');
    row(Text, {{-16, "category"},
               {-22, "name"},
               {9, "count"},
               {13, "total"},
               {12, "mean"},
               {12, "p50"},
               {12, "p99"}});
    Text.put('\n');
    for (const RegionStats &R : T.Regions) {
      row(Text,
          {{-16, cstr(R.Cat)},
           {-22, cstr(R.Name)},
           {9, fmt::format("{}", R.Durs.size())},
           {13, humanDuration(R.Total)},
           {12, humanDuration(R.Total / static_cast<int64_t>(R.Durs.size()))},
           {12, humanDuration(percentile(R.Durs, 0.5))},
           {12, humanDuration(percentile(R.Durs, 0.99))}});
      if (R.Unfinished)
        Text.print("  ({} unfinished)", R.Unfinished);
      Text.put('\n');
    }
  }
  if (!T.Watches.empty()) {
    Text.put('\n');
    row(Text, {{-16, "watch"},
               {-22, "function"},
               {9, "count"},
               {13, "first"},
               {12, "last"},
               {12, "min"},
               {12, "max"}});
    Text.put('\n');
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
      row(Text, {{-16, cstr(W.Name)},
                 {-22, cstr(W.Func)},
                 {9, fmt::format("{}", W.Count)},
                 {13, cstr(watchText(*W.First))},
                 {12, cstr(watchText(*W.Last))},
                 {12, Min},
                 {12, Max}});
      Text.put('\n');
    }
  }
  if (!T.Apis.empty()) {
    int W = 22;
    for (const ApiStats &A : T.Apis)
      W = std::max(W, static_cast<int>(A.Function.size()));
    Text.put('\n');
    row(Text, {{-W, "api call"},
               {-22, "from"},
               {9, "calls"},
               {7, "errors"},
               {13, "total"},
               {12, "p50"},
               {12, "p99"}});
    Text.put('\n');
    for (const ApiStats &A : T.Apis) {
      row(Text, {{-W, cstr(A.Function)},
                 {-22, cstr(A.Caller)},
                 {9, fmt::format("{}", A.Calls)},
                 {7, fmt::format("{}", A.Errors)},
                 {13, humanDuration(A.Total)},
                 {12, humanDuration(percentile(A.Durs, 0.5))},
                 {12, humanDuration(percentile(A.Durs, 0.99))}});
      if (A.Unfinished)
        Text.print("  ({} unfinished)", A.Unfinished);
      Text.put('\n');
    }
  }
  if (!T.States.empty()) {
    Text.put('\n');
    row(Text, {{-16, "state"},
               {-22, "function"},
               {9, "records"},
               {9, "params"},
               {9, "snapshots"}});
    Text.raw("  last\n");
    for (const StateStats &St : T.States) {
      uint64_t Snapshots = 0;
      for (const auto &P : St.PerParam)
        Snapshots = std::max(Snapshots, P.second);
      std::string Last = "-";
      if (St.Last) {
        const std::string *Param = strField(*St.Last, "param");
        const Value *Norm = St.Last->get("norm");
        Last = (Param ? *Param : std::string("?")) + " " + shortValue(*St.Last);
        if (Norm && Norm->isNumber())
          Last += fmt::format(" norm {:.6g}", Norm->number());
      }
      row(Text, {{-16, cstr(St.Name)},
                 {-22, cstr(St.Func)},
                 {9, fmt::format("{}", St.Records)},
                 {9, fmt::format("{}", St.PerParam.size())},
                 {9, fmt::format("{}", Snapshots)}});
      Text.print("  {}\n", cstr(Last));
    }
  }
  if (!T.Instants.empty()) {
    Text.put('\n');
    row(Text, {{-39, "instant"}, {9, "count"}});
    Text.put('\n');
    for (const auto &I : T.Instants) {
      row(Text, {{-39, cstr(I.first)}, {9, fmt::format("{}", I.second)}});
      Text.put('\n');
    }
  }
}

} // namespace sonde::trace
