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

/// Points per watch plot and process, and over all lines of the page: a
/// job of many ranks gets fewer points per line (never fewer than
/// MinPoints), so the page stays a size a browser opens at once.
constexpr size_t MaxPoints = 2000;
constexpr size_t MaxPagePoints = 200000;
constexpr size_t MinPoints = 200;

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

void WatchPlots::Line::add(const Point &P) {
  ++Added;
  if (Bucket <= 1) {
    Kept.push_back(P);
    return;
  }
  Pending.push_back(P);
  if (Pending.size() == Bucket)
    flush();
}

void WatchPlots::Line::flush() {
  if (Pending.empty())
    return;
  auto [Lo, Hi] = std::minmax_element(
      Pending.begin(), Pending.end(),
      [](const Point &A, const Point &C) { return A.second < C.second; });
  if (Lo > Hi)
    std::swap(Lo, Hi);
  Kept.push_back(*Lo);
  if (Hi != Lo)
    Kept.push_back(*Hi);
  Pending.clear();
}

const SiteInfo *WatchPlots::plotted(const Event &E, double &V) const {
  if (E.Kind != EventKind::Watch)
    return nullptr;
  const SiteInfo &S = Current->site(E.Site);
  return plotValue(S, E.V, V) ? &S : nullptr;
}

void WatchPlots::beginCount(size_t TraceIndex, const Trace &T) {
  TI = TraceIndex;
  Current = &T;
  MaxStep.clear();
}

void WatchPlots::count(const Event &E) {
  // A step that restarts every epoch is counted on across epochs: epoch e's
  // steps start after the largest step any record of the earlier epochs
  // carries.
  const Value *Ep = argOf(E, "epoch"), *St = argOf(E, "step");
  if (Ep && St && Ep->isNumber() && St->isNumber()) {
    int64_t &M =
        MaxStep.try_emplace(static_cast<int64_t>(Ep->number()), INT64_MIN)
            .first->second;
    M = std::max(M, static_cast<int64_t>(St->number()));
  }
  double V;
  const SiteInfo *Plotted = plotted(E, V);
  if (!Plotted)
    return;
  const SiteInfo &S = *Plotted;
  auto [It, New] = Watches.try_emplace(Key(S.Name, S.Function));
  Series &W = It->second;
  if (New) {
    Order.push_back(It->first);
    W.Name = S.Name + (scalarOf(E.V) ? "" : ".mean");
    W.Func = S.Function;
    W.FirstTrace = TI;
    W.HasStep = St != nullptr;
  }
  auto [L, NewLine] = W.Lines.try_emplace(TI);
  Lines += NewLine;
  ++L->second.Total;
  ++W.Count;
}

void WatchPlots::endCount() {
  if (StepBases.size() <= TI)
    StepBases.resize(TI + 1);
  int64_t Base = 0;
  for (const auto &[Ep, Max] : MaxStep) {
    StepBases[TI][Ep] = Base;
    Base += Max + 1;
  }
}

void WatchPlots::beginPoints(size_t TraceIndex, const Trace &T) {
  TI = TraceIndex;
  Current = &T;
  if (TI != 0)
    return;
  // Every trace was counted: bucket sizes and the names of x are known.
  size_t PerLine =
      std::max(MinPoints,
               std::min(MaxPoints, MaxPagePoints / std::max<size_t>(Lines, 1)));
  for (auto &[K, W] : Watches) {
    W.XName = !W.HasStep ? ""
              : StepBases[W.FirstTrace].empty()
                  ? "step"
                  : "step (counted across epochs)";
    for (auto &[TI, L] : W.Lines) {
      size_t Half = PerLine / 2;
      L.Bucket = std::max<size_t>(1, (L.Total + Half - 1) / Half);
    }
  }
}

void WatchPlots::point(const Event &E) {
  double V;
  const SiteInfo *Plotted = plotted(E, V);
  if (!Plotted)
    return;
  Series &W = Watches[Key(Plotted->Name, Plotted->Function)];
  Line &L = W.Lines[TI];
  double X = static_cast<double>(L.Added);
  if (!W.XName.empty())
    if (const Value *St = argOf(E, "step"); St && St->isNumber()) {
      X = St->number();
      if (const Value *Ep = argOf(E, "epoch"); Ep && Ep->isNumber()) {
        const std::map<int64_t, int64_t> &StepBase = StepBases[TI];
        auto It = StepBase.find(static_cast<int64_t>(Ep->number()));
        if (It != StepBase.end())
          X += static_cast<double>(It->second);
      }
    }
  L.add({X, V});
}

void WatchPlots::write(JsonOut &J, const std::vector<Trace> &Traces) {
  J.key("watches").openArray();
  for (const Key &K : Order) {
    Series &W = Watches[K];
    J.item().open();
    J.key("name").str(W.Name);
    J.key("func").str(W.Func);
    J.key("x").str(W.XName.empty() ? "record #" : W.XName);
    J.key("count").num(W.Count);
    J.key("lines").openArray();
    for (auto &[TI, L] : W.Lines) {
      L.flush();
      J.item().open();
      J.key("rank").num(Traces[TI].Process.Rank);
      J.key("pid").num(Traces[TI].Process.Pid);
      J.key("points").openArray();
      for (const Point &P : L.Kept) {
        J.item().openArray().item().num(P.first).item().num(P.second);
        J.closeArray();
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
