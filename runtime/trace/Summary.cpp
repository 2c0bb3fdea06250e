//===- Summary.cpp - `sonde summary`: where the time went -----------------===//

#include "Export.h"
#include "Json.h"
#include "ProcessFields.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace sonde::trace {

int64_t percentile(const std::vector<int64_t> &Durs, double P) {
  if (Durs.empty())
    return 0;
  size_t Rank = static_cast<size_t>(std::ceil(P * Durs.size()));
  return Durs[std::min(Durs.size(), std::max<size_t>(Rank, 1)) - 1];
}

namespace {

struct RegionStats {
  std::string Cat, Category, Name;
  std::vector<int64_t> Durs;
  int64_t Total = 0;
  uint64_t Unfinished = 0;
};

struct WatchStats {
  std::string Name, Func;
  uint64_t Count = 0;
  const Value *First = nullptr, *Last = nullptr;
  double Min = INFINITY, Max = -INFINITY;
  bool Numeric = false;
};

/// The calls of one API (`apis:`) from one function: the pre record opens a
/// call, the post or error record with the same call id closes it.
struct ApiStats {
  std::string Function, Caller;
  uint64_t Calls = 0, Errors = 0, Unfinished = 0;
  std::vector<int64_t> Durs;
  int64_t Total = 0;
};

/// The records of one `state:` site: one per parameter per snapshot.
struct StateStats {
  std::string Name, Func;
  uint64_t Records = 0;
  std::map<std::string, uint64_t> PerParam;
  const Value *Last = nullptr;
};

struct Totals {
  std::vector<RegionStats> Regions;
  std::vector<WatchStats> Watches;
  std::vector<ApiStats> Apis;
  std::vector<StateStats> States;
  std::map<std::string, int64_t> ByCategory;
  std::map<std::string, uint64_t> Instants;
  uint64_t Events = 0, Threads = 0, Dropped = 0;
};

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

const std::string *strField(const Value &V, const char *Key) {
  const Value *F = V.get(Key);
  return F && F->K == Value::Kind::String ? &F->str() : nullptr;
}

uint64_t callId(const Value &V) {
  const Value *C = V.get("call");
  if (!C)
    return 0;
  return C->K == Value::Kind::UInt ? C->U : static_cast<uint64_t>(C->I);
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
    Open[callId(E.V)] = {I, E.Ts};
    return;
  }
  auto It = Open.find(callId(E.V));
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
  St.Last = &E.V;
}

Totals collect(const std::vector<Trace> &Traces) {
  Totals T;
  RowIndex ApiIndex, StateIndex, RegionIndex, WatchIndex;
  std::map<std::string, int64_t> &CategoryTotals = T.ByCategory;
  for (const Trace &Tr : Traces) {
    // Site id -> stats index, so the per-event work is an array lookup.
    std::vector<size_t> BySite(Tr.Sites.size(), NoRow);
    T.Events += Tr.Events.size();
    T.Threads += Tr.Threads.size();
    T.Dropped += Tr.Process.Dropped;
    OpenCalls Open;
    for (const Event &E : Tr.Events) {
      const SiteInfo &S = Tr.site(E.Site);
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
        CategoryTotals[R.Cat] += E.Dur;
        break;
      }
      case EventKind::Instant:
        ++T.Instants[S.Category + "/" + eventName(Tr, E)];
        break;
      case EventKind::Watch: {
        WatchStats &W =
            rowOf(T.Watches, WatchIndex, BySite[E.Site], S.Name, S.Function,
                  [&] { return WatchStats{S.Name, S.Function}; });
        ++W.Count;
        if (!W.First)
          W.First = &E.V;
        W.Last = &E.V;
        if (const Value *Scalar = scalarOf(E.V)) {
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
  for (RegionStats &R : T.Regions)
    std::sort(R.Durs.begin(), R.Durs.end());
  for (ApiStats &A : T.Apis)
    std::sort(A.Durs.begin(), A.Durs.end());
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
  J.close().raw("\n");
}

} // namespace sonde::trace
