//===- Value.cpp - value: what a watched value always is
//-------------------===//
//
// Over the values a program records (watches and their fields, model state
// fields, API results):
//  - `finite`: a floating-point value is never NaN or infinite;
//  - `range`: a scalar watch stays within the range seen, widened on each
//    side by RangeMargin times its width, or times a quarter of the
//    values' magnitude when that is more;
//  - `fixed`: always the same value (a dtype, a shape), or the same but for
//    the last record of each iteration of a scope (the batch shape, but
//    for an epoch's last, partial batch);
//  - `monotone`: a scalar never decreases (or never increases) from one
//    record to the next, and did change.
//
// Trivially true, so never kept: `finite` on integers and booleans (they
// cannot be NaN), `range` and `monotone` on a constant (`fixed` says it
// better), `fixed` but for the last record of iterations that hold one
// record each (every record is a last one). Durations are never values:
// they depend on the machine's load.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace sonde::trace::inv {
namespace {

bool isValueStream(const Point &P) {
  return P.O == Origin::Watch || P.O == Origin::State || P.O == Origin::ApiRet;
}

bool isScalarStream(const Point &P) {
  return P.TopLevel && (P.O == Origin::Watch || P.O == Origin::Arg);
}

struct Stats {
  uint64_t N = 0, Pairs = 0;
  bool AnyFloat = false, AllFinite = true, AllNumber = true;
  bool Up = true, Down = true, Changed = false;
  double Min = std::numeric_limits<double>::infinity();
  double Max = -std::numeric_limits<double>::infinity();
  PerThread<Link> Links;
  bool Scalar_ = false, Value_ = false;
  Constancy K;
};

class ValueLearner : public Learner {
  std::unordered_map<uint32_t, Stats> Streams;
  InferOptions Opt;

public:
  explicit ValueLearner(const InferOptions &O) : Opt(O) {}

  void value(const Feed &, const Point &P) override {
    bool IsValue = isValueStream(P), IsScalar = isScalarStream(P);
    if (!IsValue && !IsScalar)
      return;
    Stats &S = Streams[P.Stream];
    S.Value_ = IsValue;
    S.Scalar_ = IsScalar;
    ++S.N;
    if (IsValue)
      S.K.add(P);
    if (!P.V.isNumber()) {
      S.AllNumber = false;
      return;
    }
    double X = P.V.N;
    if (P.V.K == Scalar::Kind::Float) {
      S.AnyFloat = true;
      S.AllFinite &= std::isfinite(X);
    }
    if (std::isfinite(X)) {
      S.Min = std::min(S.Min, X);
      S.Max = std::max(S.Max, X);
    }
    Link &L = S.Links[P.E->Thread];
    if (L.Have && L.V.isNumber()) {
      ++S.Pairs;
      S.Up &= X >= L.V.N;
      S.Down &= X <= L.V.N;
      S.Changed |= X != L.V.N;
    }
    L.V = P.V;
    L.Have = true;
  }

  void traceEnded(const Feed &) override {
    for (auto &[Id, S] : Streams)
      S.Links.clear();
  }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &Entry : Streams) {
      uint32_t Id = Entry.first;
      Stats &S = Entry.second;
      if (S.N < Opt.MinSupport)
        continue;
      auto Make = [&](const char *Rel, uint64_t Support) -> Invariant & {
        Invariant I;
        I.Family = "value";
        I.Relation = Rel;
        I.Subject = F.name(Id);
        I.Support = Support;
        Out.push_back(std::move(I));
        return Out.back();
      };
      bool Constant = S.K.N ? S.K.AllEqual : !S.Changed;
      if (S.Value_ && S.AnyFloat && S.AllNumber && S.AllFinite)
        Make("finite", S.N).Text = quote(F.name(Id)) + " is finite";
      if (S.Value_ && S.K.AllEqual) {
        Invariant &I = Make("fixed", S.N);
        I.Value = S.K.First.text();
        I.Text = quote(I.Subject) + " is always " + I.Value;
      } else if (const Constancy::Cand *C =
                     S.Value_ ? S.K.exceptLast() : nullptr) {
        Invariant &I = Make("fixed", S.N);
        I.Value = S.K.First.text();
        I.Scope = F.name(C->Scope);
        I.Text = quote(I.Subject) + " is always " + I.Value +
                 " but for the last record of an iteration of " +
                 quote(I.Scope);
      }
      if (!S.Scalar_ || !S.AllNumber || Constant)
        continue;
      if (S.AnyFloat && S.AllFinite && S.Max > S.Min) {
        // Two or three good runs show only part of what good runs do: a
        // narrow range (an accuracy between 0.83 and 0.87) is widened by a
        // quarter of the values' magnitude at least.
        double Mag = std::max(std::fabs(S.Min), std::fabs(S.Max));
        double M = Opt.RangeMargin * std::max(S.Max - S.Min, 0.25 * Mag);
        Invariant &I = Make("range", S.N);
        I.Lo = S.Min - M;
        I.Hi = S.Max + M;
        I.Text = quote(I.Subject) + " stays within [" + shortestDouble(I.Lo) +
                 ", " + shortestDouble(I.Hi) + "]";
      }
      if (S.Pairs >= Opt.MinSupport && S.Changed && (S.Up || S.Down)) {
        Invariant &I = Make("monotone", S.Pairs);
        I.Direction = S.Up ? "increasing" : "decreasing";
        I.Text =
            quote(I.Subject) + " never " + (S.Up ? "decreases" : "increases");
      }
    }
  }
};

enum class Rel : uint8_t { Finite, Range, Fixed, Monotone };

class ValueCheck : public CheckSink {
  struct Last {
    PerThread<Link> Links;
    Rel R = Rel::Finite;
    /// fixed: the last value found equal to the invariant's, so a repeat
    /// is compared without formatting it.
    Scalar Match;
    bool HaveMatch = false;
  };
  std::vector<Last> Lasts;

  /// Whether the value's text is the invariant's value.
  static bool matches(Last &L, const Scalar &V, const std::string &Text) {
    if (L.HaveMatch && V == L.Match)
      return true;
    if (V.text() != Text)
      return false;
    L.Match = V;
    L.HaveMatch = true;
    return true;
  }

public:
  explicit ValueCheck(std::vector<const Invariant *> I)
      : CheckSink(std::move(I)), Lasts(Tallies.size()) {
    for (size_t K = 0; K < Tallies.size(); ++K) {
      const std::string &R = Tallies[K].Inv->Relation;
      Lasts[K].R = R == "finite"  ? Rel::Finite
                   : R == "range" ? Rel::Range
                   : R == "fixed" ? Rel::Fixed
                                  : Rel::Monotone;
    }
  }

  /// finite, range and fixed (without a scope) look at the value alone.
  bool pure(const Feed &F, uint32_t Stream) override {
    for (size_t I : about(F, Stream))
      if (Lasts[I].R == Rel::Monotone ||
          (Lasts[I].R == Rel::Fixed && !Tallies[I].Inv->Scope.empty()))
        return false;
    return true;
  }

  /// finite and range pass a value (no violation) by looking at it alone,
  /// and note only that they were exercised.
  Quiet quiet(const Feed &F, uint32_t Stream) override {
    Quiet Q;
    for (size_t I : about(F, Stream)) {
      const Invariant &Inv = *Tallies[I].Inv;
      Quiet One;
      if (Lasts[I].R == Rel::Finite) {
        One.Finite = true;
      } else if (Lasts[I].R == Rel::Range) {
        One.Number = true;
        One.Lo = Inv.Lo;
        One.Hi = Inv.Hi;
      } else {
        return Quiet::never();
      }
      Q.also(One);
    }
    return Q;
  }

  void value(const Feed &F, const Point &P) override {
    if (!isValueStream(P) && !isScalarStream(P))
      return;
    for (size_t I : about(F, P.Stream)) {
      const Invariant &Inv = *Tallies[I].Inv;
      Last &L = Lasts[I];
      Tallies[I].Touched = true;
      std::string Bad;
      if (L.R == Rel::Finite) {
        if (P.V.K == Scalar::Kind::Float && !std::isfinite(P.V.N))
          Bad = "value " + P.V.text();
      } else if (L.R == Rel::Range) {
        if (!P.V.isNumber() || !(P.V.N >= Inv.Lo && P.V.N <= Inv.Hi))
          Bad = "value " + P.V.text();
      } else if (L.R == Rel::Fixed) {
        bool Same = matches(L, P.V, Inv.Value);
        if (Inv.Scope.empty()) {
          if (!Same)
            Bad = "value " + P.V.text();
        } else {
          Link &K = L.Links[P.E->Thread];
          int64_t Scope = idOf(F, I, /*Other=*/false, /*Scope=*/true);
          uint64_t It = Scope < 0 ? 0 : iterationOf(*P.Stack, uint32_t(Scope));
          if (K.Pending && K.Pending == It)
            Bad = "a record after " + K.V.text() + " in the same iteration";
          K.Pending = Same ? 0 : It;
          if (!Same)
            K.V = P.V;
        }
      } else {
        Link &K = L.Links[P.E->Thread];
        if (K.Have && P.V.isNumber() && K.V.isNumber() &&
            (Inv.Direction == "increasing" ? P.V.N < K.V.N : P.V.N > K.V.N))
          Bad = "was " + K.V.text() + ", now " + P.V.text();
        K.V = P.V;
        K.Have = true;
      }
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

Family valueFamily() {
  return {"value",
          {"finite", "range", "fixed", "monotone"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<ValueLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<ValueCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
