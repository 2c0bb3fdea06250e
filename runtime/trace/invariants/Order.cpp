//===- Order.cpp - order: what comes first in each iteration of a scope ---===//
//
// `precedes`: in every iteration of scope S that holds a record of site B,
// a record of site A comes before B's first one (TrainCheck's FunctionLead
// and APISequence: zero_grad before backward before step).
//
// Kept only when it held in at least MinSupport iterations, and not when
// it is true by construction: A and B are the same statement (a call's
// region and its API record), or one occurs inside the other's region
// (a region starts before what it holds). Of the pairs that hold, only the
// transitive reduction is kept: with A<B and B<C, A<C says nothing more.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <unordered_map>

namespace sonde::trace::inv {
namespace {

uint64_t pairKey(uint32_t A, uint32_t B) { return uint64_t(A) << 32 | B; }

bool sameStatement(const Feed &F, uint32_t A, uint32_t B) {
  const SiteInfo *X = F.siteInfo(A), *Y = F.siteInfo(B);
  return X && Y && X->File == Y->File && X->Line == Y->Line;
}

class OrderLearner : public Learner {
  struct Scope {
    uint64_t Iters = 0;
    std::unordered_map<uint32_t, uint64_t> With;   ///< iterations holding B
    std::unordered_map<uint64_t, uint64_t> Before; ///< A first, then B
  };
  std::unordered_map<uint32_t, Scope> Scopes;
  InferOptions Opt;

public:
  explicit OrderLearner(const InferOptions &O) : Opt(O) {}

  void scopeClosed(const Feed &, const OpenScope &S) override {
    if (S.Partial || S.Children.size() < 2)
      return;
    Scope &Sc = Scopes[S.Site];
    ++Sc.Iters;
    for (size_t J = 0; J < S.Children.size(); ++J) {
      uint32_t B = S.Children[J].Site;
      ++Sc.With[B];
      for (size_t I = 0; I < J; ++I)
        ++Sc.Before[pairKey(S.Children[I].Site, B)];
    }
  }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &[S, Sc] : Scopes) {
      if (Sc.Iters < Opt.MinSupport)
        continue;
      std::unordered_map<uint64_t, uint64_t> Holds;
      std::unordered_map<uint32_t, std::vector<uint32_t>> After;
      for (auto &[Key, N] : Sc.Before) {
        uint32_t A = uint32_t(Key >> 32), B = uint32_t(Key);
        uint64_t WithB = Sc.With[B];
        if (N != WithB || WithB < Opt.MinSupport || A == B ||
            sameStatement(F, A, B) || F.nested(A, B) || F.nested(B, A))
          continue;
        Holds[Key] = WithB;
        After[A].push_back(B);
      }
      for (auto &[Key, N] : Holds) {
        uint32_t A = uint32_t(Key >> 32), B = uint32_t(Key);
        bool Implied = false;
        for (uint32_t C : After[A])
          Implied |= C != B && Holds.count(pairKey(C, B));
        if (Implied)
          continue;
        Invariant I;
        I.Family = "order";
        I.Relation = "precedes";
        I.Scope = F.name(S);
        I.Other = F.name(A);
        I.Subject = F.name(B);
        I.Support = N;
        I.Text = "in every iteration of " + quote(I.Scope) + " that has " +
                 quote(I.Subject) + ", " + quote(I.Other) + " comes before it";
        Out.push_back(std::move(I));
      }
    }
  }
};

class OrderCheck : public CheckSink {
public:
  using CheckSink::CheckSink;
  void scopeClosed(const Feed &F, const OpenScope &S) override {
    if (S.Partial)
      return;
    for (size_t I : about(F, S.Site, /*ByScope=*/true)) {
      const Invariant &Inv = *Tallies[I].Inv;
      int64_t A = idOf(F, I, /*Other=*/true), B = idOf(F, I);
      auto PosOf = [&](int64_t Id) -> int32_t {
        return Id < 0 || size_t(Id) >= S.Pos.size() ? -1 : S.Pos[Id];
      };
      int32_t PB = PosOf(B), PA = PosOf(A);
      if (PB < 0)
        continue;
      Tallies[I].Touched = true;
      if (PA >= 0 && PA < PB)
        continue;
      const OpenScope::Child &C = S.Children[PB];
      violate(I, F,
              F.whereAt(C.Ts, S.Thread, C.Site,
                        PA < 0 ? "no " + quote(Inv.Other) +
                                     " before it in this iteration"
                               : quote(Inv.Other) + " came only after it"));
    }
  }
};

} // namespace

Family orderFamily() {
  return {"order",
          {"precedes"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<OrderLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<OrderCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
