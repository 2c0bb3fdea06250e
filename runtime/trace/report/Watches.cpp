//===- Watches.cpp - The watch plots of `sonde report` --------------------===//
//
// Each numeric watch as one plot, a line per process: x is the record's
// step (counted on across epochs when steps restart) or iteration when one
// is in its context, else its index; many points are bucketed, each bucket
// keeping its min and max so spikes survive.
//
//===----------------------------------------------------------------------===//

#include "ReportData.h"

#include <algorithm>
#include <map>

namespace sonde::trace::report {
namespace {

constexpr size_t MaxPoints = 2000; ///< points per watch plot

} // namespace

/// The number a watch plots: a scalar (a number, or a one-element tensor's
/// value), or a tensor summary's mean. Model state (one record per
/// parameter) and API calls are not plotted: their
/// records are not one series.
bool plotValue(const SiteInfo &S, const Value &V, double &Out) {
  if (S.Kind == SiteKind::State || S.Kind == SiteKind::Api)
    return false;
  const Value *N = scalarOf(V);
  if (!N && V.K == Value::Kind::Object)
    N = V.get("mean");
  if (!N || !N->isNumber())
    return false;
  Out = N->number();
  return true;
}

void writeWatches(JsonOut &J, const std::vector<Trace> &Traces) {
  // --- watches: each numeric one, in order; x is its step (or iteration)
  // when one is in its context, else its index.
  struct Series {
    std::string Name, Func, XName;
    uint64_t Count = 0;
    /// Per process (index into Traces): its points.
    std::map<size_t, std::vector<std::pair<double, double>>> Lines;
  };
  std::map<std::pair<std::string, std::string>, Series> Watches;
  std::vector<std::pair<std::string, std::string>> Order;
  for (size_t TI = 0; TI < Traces.size(); ++TI) {
    // A step that restarts every epoch is counted on across epochs: epoch
    // e's steps start after the largest step any record of the earlier
    // epochs carries.
    std::map<int64_t, int64_t> MaxStep, StepBase;
    for (const Event &E : Traces[TI].Events) {
      const Value *Ep = argOf(E, "epoch"), *St = argOf(E, "step");
      if (Ep && St && Ep->isNumber() && St->isNumber()) {
        int64_t &M =
            MaxStep.try_emplace(static_cast<int64_t>(Ep->number()), INT64_MIN)
                .first->second;
        M = std::max(M, static_cast<int64_t>(St->number()));
      }
    }
    int64_t Base = 0;
    for (const auto &[Ep, Max] : MaxStep) {
      StepBase[Ep] = Base;
      Base += Max + 1;
    }
    for (const Event &E : Traces[TI].Events) {
      double V;
      if (E.Kind != EventKind::Watch)
        continue;
      const SiteInfo &S = Traces[TI].site(E.Site);
      if (!plotValue(S, E.V, V))
        continue;
      auto Key = std::make_pair(S.Name, S.Function);
      auto [It, New] = Watches.try_emplace(Key);
      Series &W = It->second;
      if (New) {
        Order.push_back(Key);
        W.Name = S.Name + (scalarOf(E.V) ? "" : ".mean");
        W.Func = S.Function;
        W.XName = !argOf(E, "step")  ? ""
                  : StepBase.empty() ? "step"
                                     : "step (counted across epochs)";
      }
      auto &Points = W.Lines[TI];
      double X = static_cast<double>(Points.size());
      if (!W.XName.empty())
        if (const Value *St = argOf(E, "step"); St && St->isNumber()) {
          X = St->number();
          if (const Value *Ep = argOf(E, "epoch"); Ep && Ep->isNumber()) {
            auto It = StepBase.find(static_cast<int64_t>(Ep->number()));
            if (It != StepBase.end())
              X += static_cast<double>(It->second);
          }
        }
      Points.push_back({X, V});
      ++W.Count;
    }
  }
  J.key("watches").openArray();
  for (const auto &Key : Order) {
    Series &W = Watches[Key];
    J.item().open();
    J.key("name").str(W.Name);
    J.key("func").str(W.Func);
    J.key("x").str(W.XName.empty() ? "record #" : W.XName);
    J.key("count").num(W.Count);
    J.key("lines").openArray();
    for (const auto &[TI, Points] : W.Lines) {
      J.item().open();
      J.key("rank").num(Traces[TI].Process.Rank);
      J.key("pid").num(Traces[TI].Process.Pid);
      J.key("points").openArray();
      // Many points: each bucket keeps its min and max, so spikes survive.
      size_t Half = MaxPoints / 2;
      size_t Bucket = (Points.size() + Half - 1) / Half;
      auto Point = [&](const std::pair<double, double> &P) {
        J.item().openArray().item().num(P.first).item().num(P.second);
        J.closeArray();
      };
      if (Bucket <= 1) {
        for (const auto &P : Points)
          Point(P);
      } else {
        for (size_t B = 0; B < Points.size(); B += Bucket) {
          size_t End = std::min(Points.size(), B + Bucket);
          auto [Lo, Hi] = std::minmax_element(
              Points.begin() + B, Points.begin() + End,
              [](const auto &A, const auto &C) { return A.second < C.second; });
          if (Lo > Hi)
            std::swap(Lo, Hi);
          Point(*Lo);
          if (Hi != Lo)
            Point(*Hi);
        }
      }
      J.closeArray();
      J.close();
    }
    J.closeArray();
    J.close();
  }
  J.closeArray();
}

} // namespace sonde::trace::report
