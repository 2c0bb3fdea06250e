//===- Rates.cpp - Training rates: items per second ----------------------===//
//
// RateCounter (Rates.h): per thread, the step open and the outermost
// data-loader and compute regions counted, so that each event is looked at
// once, in order, and nothing is counted twice; per process, the sums of
// warm-up, run and epoch steps. Rates are made from the sums at the end
// (table()), per process, then added across processes.
//
//===----------------------------------------------------------------------===//

#include "Rates.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string_view>

namespace sonde::trace {
namespace {

constexpr size_t NoEpoch = ~size_t(0);

/// What a site's regions are to the rates.
enum class Family : uint8_t { Other, Loading, Compute, Epoch };

Family familyOf(const SiteInfo &S) {
  std::string_view C = S.Category;
  auto Under = [&C](std::string_view Parent) {
    return C.substr(0, Parent.size()) == Parent &&
           (C.size() == Parent.size() || C[Parent.size()] == '.');
  };
  if (Under("dataloader"))
    return Family::Loading;
  if (Under("compute"))
    return Family::Compute;
  if (Under("pipeline.epoch"))
    return Family::Epoch;
  return Family::Other;
}

const Value *argOf(const Event &E, std::string_view Name) {
  if (!E.A)
    return nullptr;
  for (const auto &KV : *E.A)
    if (KV.first == Name)
      return &KV.second;
  return nullptr;
}

/// How an epoch arg is shown: integers as integers.
std::string epochText(const Value &V) {
  switch (V.K) {
  case Value::Kind::Int:
    return fmt::format("{}", V.I);
  case Value::Kind::UInt:
    return fmt::format("{}", V.U);
  case Value::Kind::Float:
    return fmt::format("{:g}", V.F);
  case Value::Kind::Bool:
    return V.B ? "true" : "false";
  case Value::Kind::String:
    return V.str();
  default:
    return "";
  }
}

double perSecond(uint64_t Items, int64_t Ns) {
  return Ns > 0 ? static_cast<double>(Items) * 1e9 / static_cast<double>(Ns)
                : 0.0;
}

} // namespace

bool hasItems(const SiteInfo &S) {
  return std::find(S.ArgNames.begin(), S.ArgNames.end(), ItemsArg) !=
         S.ArgNames.end();
}

RateCounter::RateCounter(unsigned WarmupSteps) : WarmupSteps(WarmupSteps) {}

void RateCounter::Sums::add(const Sums &O) {
  Steps += O.Steps;
  Items += O.Items;
  TrainNs += O.TrainNs;
  LoadNs += O.LoadNs;
  ComputeNs += O.ComputeNs;
}

void RateCounter::beginTrace(const Trace &T) {
  Current = &T;
  Processes.emplace_back();
  sitesChanged();
}

void RateCounter::sitesChanged() {
  const Trace &T = *Current;
  Classes.assign(T.Sites.size(), 0);
  for (size_t I = 0; I < T.Sites.size(); ++I)
    Classes[I] =
        static_cast<uint8_t>(static_cast<unsigned>(familyOf(T.Sites[I])) |
                             (hasItems(T.Sites[I]) ? ItemsBit : 0u));
}

size_t RateCounter::epochOf(const Event &E, const ThreadState &TS) {
  std::string Label;
  if (const Value *V = argOf(E, "epoch"))
    Label = epochText(*V);
  else if (E.Ts < TS.EpochEnd)
    Label = fmt::format("#{}", TS.EpochOrdinal);
  if (Label.empty())
    return NoEpoch;
  auto [It, New] = EpochIndex.emplace(Label, EpochLabels.size());
  if (New)
    EpochLabels.push_back(Label);
  return It->second;
}

void RateCounter::add(const Event &E) {
  if (E.Kind != EventKind::Region || !Current)
    return;
  Process &P = Processes.back();
  ThreadState &TS = P.Threads[E.Thread];
  int64_t End = E.Ts + E.Dur;
  if (TS.InStep && E.Ts >= TS.Open.End)
    close(P, TS);
  uint8_t Class = E.Site < Classes.size() ? Classes[E.Site] : 0;
  auto F = static_cast<Family>(Class & ~unsigned(ItemsBit));

  if (F == Family::Epoch && E.Ts >= TS.EpochEnd) {
    ++TS.EpochOrdinal;
    TS.EpochEnd = End;
  }
  // A step: a region with its own item count, not inside another step.
  if ((Class & ItemsBit) && !TS.InStep) {
    if (const Value *N = argOf(E, ItemsArg)) {
      if (E.Unfinished) {
        ++Unfinished;
        return;
      }
      if (!N->isNumber() || !(N->number() >= 0)) {
        ++NotCounts;
      } else {
        Step S;
        S.End = End;
        S.Items = static_cast<uint64_t>(std::llround(N->number()));
        S.OwnNs = E.Dur;
        S.Epoch = epochOf(E, TS);
        S.PreLoadNs = TS.PendingLoadNs;
        TS.PendingLoadNs = 0;
        S.Warmup = P.StepsSeen++ < WarmupSteps;
        TS.LoadEnd = TS.ComputeEnd = E.Ts;
        TS.Open = S;
        TS.InStep = true;
        return;
      }
    }
  }
  if (F == Family::Loading) {
    if (E.Ts < TS.LoadEnd)
      return; // inside a loading region counted already
    TS.LoadEnd = End;
    if (TS.InStep)
      TS.Open.LoadNs += std::min(End, TS.Open.End) - E.Ts;
    else
      TS.PendingLoadNs += E.Dur;
    return;
  }
  if (TS.InStep) {
    if (F == Family::Compute && E.Ts >= TS.ComputeEnd) {
      TS.ComputeEnd = End;
      TS.Open.ComputeNs += std::min(End, TS.Open.End) - E.Ts;
    }
    return;
  }
  // Between steps, anything but loading (evaluation, a checkpoint, the
  // next epoch) parts the fetch that went before from the next step.
  if (E.Ts >= TS.LoadEnd)
    TS.PendingLoadNs = 0;
}

void RateCounter::close(Process &P, ThreadState &TS) {
  const Step &S = TS.Open;
  Sums X;
  X.Steps = 1;
  X.Items = S.Items;
  X.TrainNs = S.PreLoadNs + S.OwnNs;
  X.LoadNs = S.PreLoadNs + S.LoadNs;
  X.ComputeNs = S.ComputeNs;
  if (S.Warmup) {
    P.Warmup.add(X);
  } else {
    P.Run.add(X);
    if (S.Epoch != NoEpoch)
      P.Epochs[S.Epoch].add(X);
  }
  TS.InStep = false;
}

void RateCounter::finish() {
  for (Process &P : Processes)
    for (auto &KV : P.Threads)
      if (KV.second.InStep)
        close(P, KV.second);
}

RateTable RateCounter::table() const {
  RateTable T;
  T.WarmupSteps = WarmupSteps;
  T.Unfinished = Unfinished;
  T.NotCounts = NotCounts;
  // Adds one process's sums and rates to a row.
  auto Add = [](RateRow &R, const Sums &S) {
    R.Steps += S.Steps;
    R.Items += S.Items;
    R.TrainNs += S.TrainNs;
    R.LoadNs += S.LoadNs;
    R.ComputeNs += S.ComputeNs;
    R.Train += perSecond(S.Items, S.TrainNs);
    R.Loading += perSecond(S.Items, S.LoadNs);
    R.Compute += perSecond(S.Items, S.ComputeNs);
  };
  T.Epochs.resize(EpochLabels.size());
  for (size_t I = 0; I < EpochLabels.size(); ++I)
    T.Epochs[I].Label = EpochLabels[I];
  for (const Process &P : Processes) {
    Add(T.Warmup, P.Warmup);
    Add(T.Run, P.Run);
    for (const auto &[Epoch, S] : P.Epochs)
      Add(T.Epochs[Epoch], S);
  }
  // An epoch all of whose steps were warm-up has no row.
  T.Epochs.erase(std::remove_if(T.Epochs.begin(), T.Epochs.end(),
                                [](const RateRow &R) { return !R.Steps; }),
                 T.Epochs.end());
  return T;
}

} // namespace sonde::trace
