//===- Registry.cpp - The relation families, and what they share ----------===//
//
// The list of families (Families.h) and the pieces several of them use:
// a check's tallies and its lookup of invariants by name, and the
// constancy tracker behind value.fixed, argument.same and
// state.constant_within.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <algorithm>

namespace sonde::trace::inv {

const std::vector<Family> &families() {
  static const std::vector<Family> All = {orderFamily(),    containmentFamily(),
                                          stateFamily(),    valueFamily(),
                                          argumentFamily(), ranksFamily()};
  return All;
}

std::string quote(const std::string &Key) { return "'" + Key + "'"; }

uint64_t iterationOf(const std::vector<OpenScope> &Stack, uint32_t Scope) {
  for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
    if (It->Site == Scope)
      return It->Iter;
  return 0;
}

CheckSink::CheckSink(std::vector<const Invariant *> Invs) {
  for (size_t I = 0; I < Invs.size(); ++I) {
    Tallies.emplace_back();
    Tallies.back().Inv = Invs[I];
    BySubject[Invs[I]->Subject].push_back(I);
    if (!Invs[I]->Scope.empty())
      ByScopeKey[Invs[I]->Scope].push_back(I);
  }
}

int64_t CheckSink::findId(const Feed &F, size_t I, bool Other, bool Scope) {
  auto &V = Ids[Scope ? 2 : Other ? 1 : 0];
  if (V.empty())
    V.assign(Tallies.size(), -1);
  if (V[I] < 0) {
    const Invariant &Inv = *Tallies[I].Inv;
    V[I] = F.find(Scope ? Inv.Scope : Other ? Inv.Other : Inv.Subject);
  }
  return V[I];
}

void CheckSink::violate(size_t I, const Feed &F, const Where &W) {
  Tally &T = Tallies[I];
  F.violated();
  if (T.Count++ == 0) {
    T.First = W;
    T.Seq = F.records();
  }
}

const std::vector<size_t> &CheckSink::resolve(const Feed &F, uint32_t Id,
                                              bool ByScope) {
  static const std::vector<size_t> NoInvariants;
  auto &C = Cache[ByScope];
  if (Id >= C.size())
    C.resize(std::max<size_t>(F.names(), Id + 1), nullptr);
  auto &Map = ByScope ? ByScopeKey : BySubject;
  auto It = Map.find(F.name(Id));
  C[Id] = It != Map.end() ? &It->second : &NoInvariants;
  return *C[Id];
}

void Constancy::add(const Point &P) {
  if (N++ == 0) {
    First = P.V;
    for (const OpenScope &S : *P.Stack) {
      bool Seen = false;
      for (const Cand &C : Cands)
        Seen |= C.Scope == S.Site;
      if (!Seen) {
        Cands.emplace_back();
        Cands.back().Scope = S.Site;
      }
    }
  } else if (AllEqual && P.V != First) {
    AllEqual = false;
  }
  for (size_t I = 0; I < Cands.size();) {
    Cand &C = Cands[I];
    uint64_t It = iterationOf(*P.Stack, C.Scope);
    if (!It) { // not around every record: not a candidate
      Cands.erase(Cands.begin() + static_cast<long>(I));
      continue;
    }
    Cand::Last &L = C.Links[P.E->Thread];
    bool Same = It == L.Iter;
    if (!Same)
      ++C.Iters;
    // A record after a deviation, in the deviation's iteration: the
    // deviation was not the last.
    if (L.Pending == It)
      C.ExceptLast = false;
    if (P.V != First)
      L.Pending = It;
    if (Same && P.V != L.V)
      C.Within = false;
    L.V = P.V;
    L.Iter = It;
    ++I;
  }
}

const Constancy::Cand *Constancy::exceptLast() const {
  const Cand *Best = nullptr;
  for (const Cand &C : Cands)
    if (C.ExceptLast && C.Iters >= 2 && N >= 2 * C.Iters &&
        (!Best || C.Iters > Best->Iters))
      Best = &C;
  return Best;
}

const Constancy::Cand *Constancy::within() const {
  const Cand *Best = nullptr;
  for (const Cand &C : Cands)
    if (C.Within && C.Iters >= 2 && N >= 2 * C.Iters &&
        (!Best || C.Iters > Best->Iters))
      Best = &C;
  return Best;
}

} // namespace sonde::trace::inv
