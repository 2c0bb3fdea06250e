//===- LiveState.cpp - What `sonde live` shows, kept as records pass ------===//
//
// LiveState.h: each record updates its process (epoch, step), its watch
// (when a scalar) and the window of self time per top category. Regions
// arrive when they end, children before their parent in a thread's
// program order, so a region's self time is its length less the time of
// the regions that ended one level below it since its previous sibling.
//
//===----------------------------------------------------------------------===//

#include "live/LiveState.h"

#include "Export.h"
#include "exports/ExportCommon.h"

#include <algorithm>

namespace sonde::trace::live {

const Value *liveArg(const Event &E, std::string_view Name) {
  for (const auto &KV : *E.A)
    if (KV.first == Name)
      return &KV.second;
  return nullptr;
}

ProcessView &LiveState::view(const FileFollower &F) {
  ProcessView &P = Procs[&F];
  if (!P.File) {
    P.File = &F;
    const ProcessInfo &I = F.trace().Process;
    P.Rank = I.Rank;
    P.Pid = I.Pid;
    P.Program = I.Program;
    if (I.StartNs && (!StartNs || I.StartNs < StartNs))
      StartNs = I.StartNs;
  }
  return P;
}

void LiveState::started(const FileFollower &F) { view(F); }

void LiveState::ended(const FileFollower &F) {
  Rates.ended(F);
  ProcessView &P = view(F);
  P.LastNs = std::max(P.LastNs, F.trace().Process.EndNs);
  LatestNs = std::max(LatestNs, P.LastNs);
}

void LiveState::event(const FileFollower &F, const Event &E) {
  Rates.event(F, E);
  ProcessView &P = view(F);
  ++Records;
  const Trace &T = F.trace();
  const SiteInfo &S = T.site(E.Site);
  int64_t End = E.Ts + E.Dur;
  P.LastNs = std::max(P.LastNs, End);
  LatestNs = std::max(LatestNs, End);
  // Epoch and step: the args in force.
  const Value *Ep = liveArg(E, "epoch");
  const Value *St = liveArg(E, "step");
  bool NewEpoch =
      Ep && Ep->isNumber() &&
      (!P.HasEpoch || static_cast<int64_t>(Ep->number()) != P.Epoch);
  bool NewStep = St && St->isNumber() &&
                 (!P.HasStep || static_cast<int64_t>(St->number()) != P.Step);
  if (NewEpoch) {
    P.HasEpoch = true;
    P.Epoch = static_cast<int64_t>(Ep->number());
  }
  if (NewStep || (NewEpoch && St)) {
    P.HasStep = true;
    P.Step = static_cast<int64_t>(St->number());
    ++P.Steps;
  }
  if (E.Kind == EventKind::Watch) {
    const Value *Scalar = scalarOf(E.V);
    if (!Scalar || !Scalar->isNumber())
      return;
    auto [It, New] = WatchIndex.try_emplace(S.Name, Watches.size());
    if (New) {
      Watches.emplace_back();
      Watches.back().Name = S.Name;
      Watches.back().From = &F;
    }
    WatchView &W = Watches[It->second];
    if (W.From != &F)
      return;
    W.Last = Scalar->number();
    ++W.Count;
    W.Recent.push_back(W.Last);
    if (W.Recent.size() > WatchView::RecentValues)
      W.Recent.pop_front();
    return;
  }
  if (E.Kind != EventKind::Region)
    return;
  // Self time: this region's length less its children's, which ended
  // before it at the next level down.
  std::vector<int64_t> &Child = P.ChildTime[E.Thread];
  if (Child.size() < E.Level + 2)
    Child.resize(E.Level + 2, 0);
  int64_t Self = std::max<int64_t>(0, E.Dur - Child[E.Level + 1]);
  Child[E.Level + 1] = 0;
  Child[E.Level] += E.Dur;
  std::string_view Top = topCategoryOf(S);
  auto CIt = CategoryIndex.find(Top);
  if (CIt == CategoryIndex.end()) {
    CIt = CategoryIndex.emplace(std::string(Top), Categories.size()).first;
    Categories.emplace_back(Top);
  }
  int64_t Index = End / bucketNs();
  // Threads and processes arrive out of time order: the bucket may be an
  // older one (searched from the newest), or too old to count.
  auto B = Window.rbegin();
  while (B != Window.rend() && B->Index > Index)
    ++B;
  if (B == Window.rend() || B->Index != Index) {
    if (End < LatestNs - WindowNs)
      return;
    B = std::make_reverse_iterator(Window.insert(B.base(), Bucket{Index, {}}) +
                                   1);
  }
  if (B->SelfNs.size() <= CIt->second)
    B->SelfNs.resize(CIt->second + 1, 0);
  B->SelfNs[CIt->second] += Self;
  while (!Window.empty() &&
         (Window.front().Index + 1) * bucketNs() < LatestNs - WindowNs)
    Window.pop_front();
}

std::vector<const ProcessView *> LiveState::processes() const {
  std::vector<const ProcessView *> Out;
  Out.reserve(Procs.size());
  for (const auto &KV : Procs)
    Out.push_back(&KV.second);
  std::sort(Out.begin(), Out.end(),
            [](const ProcessView *A, const ProcessView *B) {
              return A->Rank != B->Rank ? A->Rank < B->Rank : A->Pid < B->Pid;
            });
  return Out;
}

std::vector<const WatchView *> LiveState::watches() const {
  std::vector<const WatchView *> Out;
  Out.reserve(Watches.size());
  for (const WatchView &W : Watches)
    Out.push_back(&W);
  // Loss first, then in the order first seen (their place in Watches).
  std::sort(Out.begin(), Out.end(), [](const WatchView *A, const WatchView *B) {
    bool LA = A->Name.find("loss") != std::string::npos;
    bool LB = B->Name.find("loss") != std::string::npos;
    return LA != LB ? LA : A < B;
  });
  return Out;
}

std::vector<std::pair<std::string, int64_t>> LiveState::categoryTime() const {
  std::vector<int64_t> Sum(Categories.size(), 0);
  for (const Bucket &B : Window)
    if ((B.Index + 1) * bucketNs() >= LatestNs - WindowNs)
      for (size_t I = 0; I < B.SelfNs.size(); ++I)
        Sum[I] += B.SelfNs[I];
  std::vector<std::pair<std::string, int64_t>> Out;
  for (size_t I = 0; I < Categories.size(); ++I)
    if (Sum[I] > 0)
      Out.emplace_back(Categories[I], Sum[I]);
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });
  return Out;
}

const ProcessView *LiveState::slowest() const {
  const ProcessView *Slow = nullptr, *Fast = fastest();
  for (const auto &KV : Procs)
    if (KV.second.HasStep && (!Slow || KV.second.Steps < Slow->Steps))
      Slow = &KV.second;
  return Slow && Fast && Slow->Steps < Fast->Steps ? Slow : nullptr;
}

const ProcessView *LiveState::fastest() const {
  const ProcessView *Fast = nullptr;
  for (const auto &KV : Procs)
    if (KV.second.HasStep && (!Fast || KV.second.Steps > Fast->Steps))
      Fast = &KV.second;
  return Fast;
}

} // namespace sonde::trace::live
