//===- Report.cpp - `sonde report`: one self-contained HTML page ----------===//
//
// The tool computes everything the page shows (self time by category and
// name, the spans of one step, each numeric watch's points, the per-epoch
// table) and embeds it as JSON into a template (report.html, compiled in)
// whose small hand-written script draws SVG. No network, no framework: the
// file opens anywhere, offline, and stays a few hundred kilobytes.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "Json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace sonde::trace {
namespace {

const char Template[] =
#include "ReportTemplate.inc"
    ;

constexpr size_t MaxNames = 24;    ///< rows of the by-name chart
constexpr size_t MaxSpans = 3000;  ///< spans in the step timeline
constexpr size_t MaxPoints = 2000; ///< points per watch plot

/// Self time: a region's duration minus its direct children's, per event.
std::vector<int64_t> selfTimes(const Trace &T) {
  std::vector<int64_t> Self(T.Events.size(), 0);
  std::map<uint32_t, std::vector<size_t>> Stacks; // per thread: open regions
  for (size_t I = 0; I < T.Events.size(); ++I) {
    const Event &E = T.Events[I];
    if (E.Kind != EventKind::Region)
      continue;
    Self[I] = E.Dur;
    auto &Stack = Stacks[E.Thread];
    while (!Stack.empty()) {
      const Event &Top = T.Events[Stack.back()];
      if (Top.Ts + Top.Dur <= E.Ts)
        Stack.pop_back();
      else
        break;
    }
    if (!Stack.empty()) {
      const Event &Top = T.Events[Stack.back()];
      if (E.Ts + E.Dur <= Top.Ts + Top.Dur)
        Self[Stack.back()] -= E.Dur;
    }
    Stack.push_back(I);
  }
  for (int64_t &S : Self)
    S = std::max<int64_t>(S, 0);
  return Self;
}

const Value *argOf(const Event &E, std::string_view Name) {
  for (const auto &KV : *E.A)
    if (KV.first == Name)
      return &KV.second;
  return nullptr;
}

/// The number a watch plots: a scalar (a number, or a one-element tensor's
/// value), or a tensor summary's mean. Model state (one record per
/// parameter, kind 6) and API calls (kind 7) are not plotted: their
/// records are not one series.
bool plotValue(const SiteInfo &S, const Value &V, double &Out) {
  if (static_cast<int>(S.Kind) == 6 || static_cast<int>(S.Kind) == 7)
    return false;
  const Value *N = scalarOf(V);
  if (!N && V.K == Value::Kind::Object)
    N = V.get("mean");
  if (!N || !N->isNumber())
    return false;
  Out = N->number();
  return true;
}

struct NameStats {
  std::string Cat, Name;
  uint64_t Count = 0;
  int64_t Total = 0, Self = 0;
  std::vector<int64_t> Durs;
};

/// The region that stands for "one step": given by name, else the most
/// frequent region of the first process whose instances contain other
/// regions (a loop body holding forward, backward, step), else the most
/// frequent region.
int64_t chooseStep(const Trace &T, const std::string &Wanted,
                   std::string &Error) {
  std::map<uint32_t, std::vector<size_t>> BySite;
  for (size_t I = 0; I < T.Events.size(); ++I)
    if (T.Events[I].Kind == EventKind::Region && !T.Events[I].Unfinished)
      BySite[T.Events[I].Site].push_back(I);
  if (!Wanted.empty()) {
    for (const auto &[Site, List] : BySite) {
      const SiteInfo &S = T.site(Site);
      if (S.Name == Wanted || S.Category + "/" + S.Name == Wanted)
        return static_cast<int64_t>(List[List.size() / 2]);
    }
    Error = "no region named '" + Wanted + "' in " + T.Path;
    return -1;
  }
  int64_t Best = -1, BestAny = -1;
  size_t BestCount = 0, BestAnyCount = 0;
  for (const auto &[Site, List] : BySite) {
    size_t Mid = List[List.size() / 2];
    const Event &E = T.Events[Mid];
    size_t Children = 0;
    for (size_t J = Mid + 1; J < T.Events.size(); ++J) {
      const Event &C = T.Events[J];
      if (C.Ts >= E.Ts + E.Dur)
        break;
      if (C.Kind == EventKind::Region && C.Thread == E.Thread &&
          C.Level > E.Level)
        ++Children;
    }
    if (List.size() > BestAnyCount) {
      BestAnyCount = List.size();
      BestAny = static_cast<int64_t>(Mid);
    }
    if (List.size() >= 2 && Children >= 2 && List.size() > BestCount) {
      BestCount = List.size();
      Best = static_cast<int64_t>(Mid);
    }
  }
  return Best >= 0 ? Best : BestAny;
}

void writeData(JsonOut &J, const std::vector<Trace> &Traces,
               const ReportOptions &O, std::string &Error) {
  J.open();
  J.key("title").str(O.Title);
  // --- processes
  J.key("processes").openArray();
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    J.item().open();
    J.key("program").str(P.Program);
    J.key("pid").num(P.Pid);
    J.key("rank").num(P.Rank);
    J.key("host").str(P.Host);
    J.key("how").str(P.Ended ? P.How : "no end record");
    J.key("start_ns").num(P.StartNs);
    J.key("dur_ns").num(P.EndNs - P.StartNs);
    J.key("events").num(static_cast<uint64_t>(T.Events.size()));
    J.key("dropped").num(P.Dropped);
    J.key("file").str(T.Path);
    J.close();
  }
  J.closeArray();

  // --- time by category and by name (self time: nested regions are not
  // counted twice), and the per-epoch table's sums.
  std::map<std::string, int64_t> CatSelf, CatTotal;
  std::map<std::pair<std::string, std::string>, NameStats> Names;
  struct EpochRow {
    int64_t Start = INT64_MAX, End = INT64_MIN;
    uint64_t Steps = 0;
    std::map<std::string, int64_t> CatSelf;
    std::map<std::string, double> LastWatch;
  };
  std::map<int64_t, EpochRow> Epochs;
  std::set<std::string> EpochCats, EpochWatches;
  std::vector<std::vector<int64_t>> Selfs;
  for (const Trace &T : Traces)
    Selfs.push_back(selfTimes(T));

  int64_t StepIndex =
      Traces.empty() ? -1 : chooseStep(Traces[0], O.Step, Error);
  uint32_t StepSite = StepIndex >= 0 ? Traces[0].Events[StepIndex].Site : 0;

  for (size_t TI = 0; TI < Traces.size(); ++TI) {
    const Trace &T = Traces[TI];
    for (size_t I = 0; I < T.Events.size(); ++I) {
      const Event &E = T.Events[I];
      const SiteInfo &S = T.site(E.Site);
      // The per-epoch table is the first process's (rank 0): ranks run
      // the same epochs, and their sums would hide which one is slow.
      const Value *EpochV = TI == 0 ? argOf(E, "epoch") : nullptr;
      EpochRow *Row = nullptr;
      if (EpochV && EpochV->isNumber()) {
        Row = &Epochs[static_cast<int64_t>(EpochV->number())];
        Row->Start = std::min(Row->Start, E.Ts);
        Row->End = std::max(Row->End, E.Ts + E.Dur);
      }
      if (E.Kind == EventKind::Region) {
        std::string Cat = S.topCategory();
        CatSelf[Cat] += Selfs[TI][I];
        CatTotal[Cat] += E.Dur;
        NameStats &N = Names[{Cat, S.Name}];
        N.Cat = Cat;
        N.Name = S.Name;
        ++N.Count;
        N.Total += E.Dur;
        N.Self += Selfs[TI][I];
        N.Durs.push_back(E.Dur);
        if (Row) {
          Row->CatSelf[Cat] += Selfs[TI][I];
          EpochCats.insert(Cat);
          if (E.Site == StepSite)
            ++Row->Steps;
        }
      } else if (E.Kind == EventKind::Watch && Row) {
        double V;
        if (plotValue(S, E.V, V)) {
          Row->LastWatch[S.Name] = V;
          EpochWatches.insert(S.Name);
        }
      }
    }
  }
  std::vector<std::pair<std::string, int64_t>> Cats(CatSelf.begin(),
                                                    CatSelf.end());
  std::sort(Cats.begin(), Cats.end(),
            [](const auto &A, const auto &B) { return A.second > B.second; });
  J.key("categories").openArray();
  for (const auto &[Cat, Self] : Cats) {
    J.item().open();
    J.key("cat").str(Cat);
    J.key("self_ns").num(Self);
    J.key("total_ns").num(CatTotal[Cat]);
    J.close();
  }
  J.closeArray();
  std::vector<NameStats *> ByName;
  for (auto &KV : Names)
    ByName.push_back(&KV.second);
  std::sort(
      ByName.begin(), ByName.end(),
      [](const NameStats *A, const NameStats *B) { return A->Self > B->Self; });
  J.key("names").openArray();
  for (size_t I = 0; I < ByName.size() && I < MaxNames; ++I) {
    NameStats &N = *ByName[I];
    std::sort(N.Durs.begin(), N.Durs.end());
    J.item().open();
    J.key("cat").str(N.Cat);
    J.key("name").str(N.Name);
    J.key("count").num(N.Count);
    J.key("total_ns").num(N.Total);
    J.key("self_ns").num(N.Self);
    J.key("p50_ns").num(N.Durs[(N.Durs.size() - 1) / 2]);
    J.key("p99_ns").num(N.Durs[std::min(
        N.Durs.size() - 1,
        static_cast<size_t>(std::ceil(0.99 * N.Durs.size())) - 1)]);
    J.close();
  }
  J.closeArray();
  J.key("names_total").num(static_cast<uint64_t>(ByName.size()));

  // --- one step
  J.key("step");
  if (StepIndex < 0) {
    J.raw("null");
  } else {
    const Trace &T = Traces[0];
    const Event &Step = T.Events[StepIndex];
    const SiteInfo &S = T.site(Step.Site);
    int64_t From = Step.Ts, To = Step.Ts + Step.Dur;
    J.open();
    J.key("cat").str(S.topCategory());
    J.key("name").str(S.Name);
    J.key("pid").num(T.Process.Pid);
    J.key("start_ns").num(From);
    J.key("dur_ns").num(Step.Dur);
    J.key("args").args(*Step.A);
    if (Step.Iter >= 0)
      J.key("iter").num(Step.Iter);
    J.key("spans").openArray();
    size_t N = 0;
    for (const Event &E : T.Events) {
      if (E.Ts >= To || N >= MaxSpans)
        break;
      if (E.Kind == EventKind::Region && E.Ts + E.Dur <= From)
        continue;
      if (E.Kind != EventKind::Region && E.Ts < From)
        continue;
      // Ancestors span the whole window: the heading names the step.
      if (E.Kind == EventKind::Region && E.Ts <= From && E.Ts + E.Dur >= To &&
          &E != &Step)
        continue;
      const SiteInfo &ES = T.site(E.Site);
      J.item().open();
      J.key("name").str(eventName(T, E));
      J.key("cat").str(ES.topCategory());
      J.key("kind").str(E.Kind == EventKind::Region    ? "region"
                        : E.Kind == EventKind::Instant ? "instant"
                                                       : "watch");
      J.key("t").num(E.Ts - From);
      J.key("d").num(E.Kind == EventKind::Region ? E.Dur : int64_t(0));
      J.key("level").num(static_cast<uint64_t>(E.Level));
      J.key("tid").num(T.tid(E.Thread));
      J.close();
      ++N;
    }
    J.closeArray();
    J.close();
  }

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

  // --- per epoch
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
  J.close();
}

} // namespace

bool writeReport(const std::vector<Trace> &Traces, const ReportOptions &O,
                 std::FILE *Out, std::string &Error) {
  std::string_view Page(Template);
  const std::string_view Slot = "/*SONDE_DATA*/";
  size_t At = Page.find(Slot);
  if (At == std::string_view::npos) {
    Error = "the report template has no data slot";
    return false;
  }
  std::fwrite(Page.data(), 1, At, Out);
  {
    char *Buf = nullptr;
    size_t Len = 0;
    std::FILE *M = open_memstream(&Buf, &Len);
    {
      // The data sits in a script element: no '<' in it may end it.
      JsonOut J(M, /*ScriptSafe=*/true);
      writeData(J, Traces, O, Error);
    }
    std::fclose(M);
    if (Error.empty())
      std::fwrite(Buf, 1, Len, Out);
    std::free(Buf);
    if (!Error.empty())
      return false;
  }
  Page.remove_prefix(At + Slot.size());
  std::fwrite(Page.data(), 1, Page.size(), Out);
  return true;
}

} // namespace sonde::trace
