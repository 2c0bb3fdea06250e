//===- Containment.cpp - containment: what every iteration holds ----------===//
//
// `contains`: every iteration of scope S holds at least one record of site
// C (TrainCheck's EventContain / APIContain: every training step has a
// fetch, a forward, a backward and a step).
//
// Kept when S had at least MinSupport iterations and C was in all of
// them; not when C is the same statement as S (a call's region and its API
// record), which no change to the program could separate.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <unordered_map>

namespace sonde::trace::inv {
namespace {

class ContainmentLearner : public Learner {
  struct Scope {
    uint64_t Iters = 0;
    std::unordered_map<uint32_t, uint64_t> Count;
  };
  std::unordered_map<uint32_t, Scope> Scopes;
  InferOptions Opt;

public:
  explicit ContainmentLearner(const InferOptions &O) : Opt(O) {}

  void scopeClosed(const Feed &, const OpenScope &S) override {
    if (S.Partial)
      return;
    Scope &Sc = Scopes[S.Site];
    ++Sc.Iters;
    for (const OpenScope::Child &C : S.Children)
      ++Sc.Count[C.Site];
  }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &[S, Sc] : Scopes) {
      if (Sc.Iters < Opt.MinSupport)
        continue;
      const SiteInfo *SI = F.siteInfo(S);
      for (auto &[C, N] : Sc.Count) {
        const SiteInfo *CI = F.siteInfo(C);
        if (N != Sc.Iters || C == S ||
            (SI && CI && SI->File == CI->File && SI->Line == CI->Line))
          continue;
        Invariant I;
        I.Family = "containment";
        I.Relation = "contains";
        I.Scope = F.name(S);
        I.Subject = F.name(C);
        I.Support = N;
        I.Text =
            "every iteration of " + quote(I.Scope) + " has " + quote(I.Subject);
        Out.push_back(std::move(I));
      }
    }
  }
};

class ContainmentCheck : public CheckSink {
public:
  using CheckSink::CheckSink;
  void scopeClosed(const Feed &F, const OpenScope &S) override {
    if (S.Partial)
      return;
    for (size_t I : about(F, S.Site, /*ByScope=*/true)) {
      Tallies[I].Touched = true;
      int64_t C = idOf(F, I);
      if (C >= 0 && size_t(C) < S.Pos.size() && S.Pos[C] >= 0)
        continue;
      violate(
          I, F,
          F.whereAt(S.Start, S.Thread, S.Site,
                    "this iteration has no " + quote(Tallies[I].Inv->Subject)));
    }
  }
};

} // namespace

Family containmentFamily() {
  return {"containment",
          {"contains"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<ContainmentLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<ContainmentCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
