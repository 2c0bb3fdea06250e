//===- Argument.cpp - argument: what calls and sites are given ------------===//
//
// Over the args of probe sites (`args: {lr: ...}`) and the arguments of
// API calls (`apis:`):
//  - `same`: always the same value (TrainCheck's "API called with the same
//    argument": `set_to_none`, the learning rate, `model.is_training()`),
//    or the same but for the last record of each iteration of a scope (a
//    batch's shape);
//  - `differs`: from one record to the next the value differs (the batch
//    given to the loss differs between consecutive steps; a loader that
//    returns the same batch breaks it). Also over watches' `hash` fields.
//
// `differs` is kept for content hashes, strings and integers only: a
// floating-point statistic that changes every step is not a rule anyone
// wrote, and keeping it would be noise. `same` on a site arg that is
// constant in the program text is still kept: a seeded bug can change it.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <unordered_map>

namespace sonde::trace::inv {
namespace {

bool isArgStream(const Point &P) {
  return P.O == Origin::Arg || P.O == Origin::ApiArg;
}

bool isDiffersStream(const Point &P) {
  if (P.O == Origin::State)
    return false; // state.changes speaks of parameters
  return P.HashField || (isArgStream(P) && (P.V.K == Scalar::Kind::Str ||
                                            P.V.K == Scalar::Kind::Int));
}

struct Stats {
  Constancy K;
  bool Arg = false, Differs = true, DiffersKind = true;
  uint64_t Pairs = 0;
  PerThread<Link> Links;
};

class ArgumentLearner : public Learner {
  std::unordered_map<uint32_t, Stats> Streams;
  InferOptions Opt;

public:
  explicit ArgumentLearner(const InferOptions &O) : Opt(O) {}

  void value(const Feed &, const Point &P) override {
    bool Arg = isArgStream(P), Diff = isDiffersStream(P);
    if (!Arg && !Diff)
      return;
    Stats &S = Streams[P.Stream];
    S.Arg = Arg;
    if (Arg)
      S.K.add(P);
    S.DiffersKind &= Diff;
    Link &L = S.Links[P.E->Thread];
    if (L.Have) {
      ++S.Pairs;
      S.Differs &= P.V != L.V;
    }
    L.V = P.V;
    L.Have = true;
  }

  void traceEnded(const Feed &) override {
    for (auto &[Id, S] : Streams)
      S.Links.clear();
  }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &[Id, S] : Streams) {
      Invariant I;
      I.Family = "argument";
      I.Subject = F.name(Id);
      if (S.Arg && S.K.N >= Opt.MinSupport) {
        const Constancy::Cand *C = S.K.AllEqual ? nullptr : S.K.exceptLast();
        if (S.K.AllEqual || C) {
          Invariant Same = I;
          Same.Relation = "same";
          Same.Value = S.K.First.text();
          Same.Support = S.K.N;
          Same.Text = quote(I.Subject) + " is always " + Same.Value;
          if (C) {
            Same.Scope = F.name(C->Scope);
            Same.Text += " but for the last record of an iteration of " +
                         quote(Same.Scope);
          }
          Out.push_back(std::move(Same));
        }
      }
      if (S.DiffersKind && S.Differs && S.Pairs >= Opt.MinSupport) {
        I.Relation = "differs";
        I.Support = S.Pairs;
        I.Text = quote(I.Subject) + " differs from one record to the next";
        Out.push_back(std::move(I));
      }
    }
  }
};

class ArgumentCheck : public CheckSink {
  struct Last {
    PerThread<Link> Links;
    bool Same = false; ///< the relation: same, else differs
    Scalar Match;      ///< same: the last value found equal to the invariant's
    bool HaveMatch = false;
  };
  std::vector<Last> Lasts;

public:
  explicit ArgumentCheck(std::vector<const Invariant *> I)
      : CheckSink(std::move(I)), Lasts(Tallies.size()) {
    for (size_t K = 0; K < Tallies.size(); ++K)
      Lasts[K].Same = Tallies[K].Inv->Relation == "same";
  }

  /// same (without a scope) looks at the value alone (the link it keeps
  /// is read only with a scope).
  bool pure(const Feed &F, uint32_t Stream) override {
    for (size_t I : about(F, Stream))
      if (!Lasts[I].Same || !Tallies[I].Inv->Scope.empty())
        return false;
    return true;
  }

  void value(const Feed &F, const Point &P) override {
    for (size_t I : about(F, P.Stream)) {
      const Invariant &Inv = *Tallies[I].Inv;
      Last &L = Lasts[I];
      Link &K = L.Links[P.E->Thread];
      Tallies[I].Touched = true;
      std::string Bad;
      if (L.Same) {
        bool Equal = L.HaveMatch && P.V == L.Match;
        if (!Equal && P.V.text() == Inv.Value) {
          Equal = true;
          L.Match = P.V;
          L.HaveMatch = true;
        }
        if (Inv.Scope.empty()) {
          if (!Equal)
            Bad = "value " + P.V.text();
        } else {
          int64_t Scope = idOf(F, I, /*Other=*/false, /*Scope=*/true);
          uint64_t It = Scope < 0 ? 0 : iterationOf(*P.Stack, uint32_t(Scope));
          if (K.Pending && K.Pending == It)
            Bad = "a record after " + K.V.text() + " in the same iteration";
          K.Pending = Equal ? 0 : It;
        }
      } else {
        if (K.Have && K.V == P.V)
          Bad = "the same as the previous record: " + P.V.text();
      }
      K.V = P.V;
      K.Have = true;
      if (!Bad.empty())
        violate(I, F, F.where(*P.E, P.Site, Bad));
    }
  }

  void traceEnded(const Feed &) override {
    for (Last &L : Lasts)
      L.Links.clear();
  }
};

} // namespace

Family argumentFamily() {
  return {"argument",
          {"same", "differs"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<ArgumentLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<ArgumentCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
