//===- State.cpp - state: how the model and the optimizer change ----------===//
//
// `changes`: from one record of a model state site to the next (after each
// optimizer step, in the spec's `state:`), each trainable parameter
// changes: its hash, or its statistics when the site records no hash. A
// parameter that stays the same was frozen by mistake or left out of the
// optimizer, or the learning rate is 0.
// `frozen`: a parameter that never changed in the good runs never does.
// `constant_within`: a value (an arg such as the learning rate, a scalar
// watch) that is not constant stays the same within each iteration of a
// scope, and changes only from one to the next (at epoch boundaries).
//
// Support: the pairs of consecutive records compared (changes, frozen);
// the records (constant_within). A constant value gives argument.same or
// value.fixed instead; constant_within needs iterations holding several
// records, or it would say nothing.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sonde::trace::inv {
namespace {

/// The parameter's identity into `Print`: its hash (a view of the record's
/// value, even an empty one), else its statistics written into `Buf` (the
/// fields of the model state record the Feed is streaming); false when it
/// has neither.
bool fingerprint(const Feed &F, std::string &Buf, std::string_view &Print) {
  if (const detail::FlatNode *H = F.field("hash");
      H && H->K == Value::Kind::String) {
    Print = H->S;
    return true;
  }
  Buf.clear();
  for (const char *Field : {"norm", "mean", "std", "min", "max"})
    if (const detail::FlatNode *V = F.field(Field);
        V && (V->K == Value::Kind::Int || V->K == Value::Kind::UInt ||
              V->K == Value::Kind::Float || V->K == Value::Kind::Bool)) {
      double N = V->K == Value::Kind::Int     ? static_cast<double>(V->I)
                 : V->K == Value::Kind::UInt  ? static_cast<double>(V->U)
                 : V->K == Value::Kind::Float ? V->F
                                              : (V->B ? 1 : 0);
      char Num[32];
      std::snprintf(Num, sizeof(Num), "%.17g/", N);
      Buf += Num;
    }
  Print = Buf;
  return !Buf.empty();
}

/// A parameter's previous fingerprint, on one thread.
struct Prev {
  std::string Print;
  bool Have = false;
};

struct Chain {
  PerThread<Prev> Links;
  uint64_t Changed = 0, Same = 0;
};

bool isWithinStream(const Point &P) {
  return P.O == Origin::Arg || (P.O == Origin::Watch && P.TopLevel);
}

class StateLearner : public Learner {
  std::unordered_map<uint32_t, Chain> Params;
  std::unordered_map<uint32_t, Constancy> Values;
  InferOptions Opt;
  std::string Buf; ///< fingerprint()'s

public:
  explicit StateLearner(const InferOptions &O) : Opt(O) {}

  void record(Feed &F, const Event &E, uint32_t) override {
    if (F.paramStream() < 0)
      return;
    std::string_view Print;
    if (!fingerprint(F, Buf, Print))
      return;
    Chain &C = Params[static_cast<uint32_t>(F.paramStream())];
    Prev &L = C.Links[E.Thread];
    if (L.Have)
      ++(L.Print == Print ? C.Same : C.Changed);
    L.Print.assign(Print);
    L.Have = true;
  }

  void value(const Feed &, const Point &P) override {
    if (isWithinStream(P))
      Values[P.Stream].add(P);
  }

  void traceEnded(const Feed &) override {
    for (auto &[S, C] : Params)
      C.Links.clear();
  }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &[S, C] : Params) {
      Invariant I;
      I.Family = "state";
      I.Subject = F.name(S);
      if (C.Same == 0 && C.Changed >= Opt.MinSupport) {
        I.Relation = "changes";
        I.Support = C.Changed;
        I.Text = quote(I.Subject) + " changes from each record to the next";
      } else if (C.Changed == 0 && C.Same >= Opt.MinSupport) {
        I.Relation = "frozen";
        I.Support = C.Same;
        I.Text = quote(I.Subject) + " never changes";
      } else {
        continue;
      }
      Out.push_back(std::move(I));
    }
    for (auto &[S, K] : Values) {
      const Constancy::Cand *C = K.within();
      if (K.AllEqual || K.N < Opt.MinSupport || !C)
        continue;
      Invariant I;
      I.Family = "state";
      I.Relation = "constant_within";
      I.Subject = F.name(S);
      I.Scope = F.name(C->Scope);
      I.Support = K.N;
      I.Text = quote(I.Subject) + " changes only between iterations of " +
               quote(I.Scope);
      Out.push_back(std::move(I));
    }
  }
};

class StateCheck : public CheckSink {
  std::vector<Chain> Chains;
  std::string Buf; ///< fingerprint()'s
  struct Last {
    uint64_t Iter = 0;
    Scalar V;
  };
  std::vector<PerThread<Last>> Lasts;
  /// Per tally: a `changes` invariant (else `frozen`), asked once.
  std::vector<bool> Changing;

public:
  explicit StateCheck(std::vector<const Invariant *> I)
      : CheckSink(std::move(I)), Chains(Tallies.size()), Lasts(Tallies.size()) {
    for (const auto &T : Tallies)
      Changing.push_back(T.Inv->Relation == "changes");
  }

  void record(Feed &F, const Event &E, uint32_t Site) override {
    // No fingerprint for a parameter no invariant is about (most records
    // of a run checked against a few of them).
    if (F.paramStream() < 0)
      return;
    const std::vector<size_t> &Ids =
        about(F, static_cast<uint32_t>(F.paramStream()));
    std::string_view Print;
    if (Ids.empty() || !fingerprint(F, Buf, Print))
      return;
    for (size_t I : Ids) {
      Prev &L = Chains[I].Links[E.Thread];
      Tallies[I].Touched = true;
      if (L.Have) {
        bool Changes = Changing[I];
        if (Changes == (L.Print == Print))
          violate(I, F,
                  F.where(E, Site,
                          Changes ? "the same as at the previous record (" +
                                        std::string(Print) + ")"
                                  : "was " + L.Print + ", now " +
                                        std::string(Print)));
      }
      L.Print.assign(Print);
      L.Have = true;
    }
  }

  void value(const Feed &F, const Point &P) override {
    if (!isWithinStream(P))
      return;
    for (size_t I : about(F, P.Stream)) {
      int64_t Scope = idOf(F, I, /*Other=*/false, /*Scope=*/true);
      uint64_t It = Scope < 0 ? 0 : iterationOf(*P.Stack, uint32_t(Scope));
      Last &L = Lasts[I][P.E->Thread];
      Tallies[I].Touched = true;
      if (It && It == L.Iter && P.V != L.V)
        violate(I, F,
                F.where(*P.E, P.Site,
                        "was " + L.V.text() + ", now " + P.V.text() +
                            " within one iteration of " +
                            quote(Tallies[I].Inv->Scope)));
      L.Iter = It;
      L.V = P.V;
    }
  }

  void traceEnded(const Feed &) override {
    for (Chain &C : Chains)
      C.Links.clear();
    for (auto &L : Lasts)
      L.clear();
  }
};

} // namespace

Family stateFamily() {
  return {"state",
          {"changes", "frozen", "constant_within"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<StateLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<StateCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
