//===- Engine.cpp - Inference and checking over the families --------------===//
//
// The Inferrer feeds every family's Learner, the Checker every family's
// CheckSink, through one Feed each (Invariants.h). Nothing here looks at a
// trace but through observe(): the loop that reads records is the
// caller's.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace sonde::trace::inv {

struct Inferrer::Impl {
  InferOptions Opt;
  std::vector<std::unique_ptr<Learner>> Learners;
  std::unique_ptr<Feed> F;
};

Inferrer::Inferrer(InferOptions Options) : P(std::make_unique<Impl>()) {
  P->Opt = Options;
  std::vector<Sink *> Sinks;
  for (const Family &Fam : families()) {
    P->Learners.push_back(Fam.Learn(Options));
    Sinks.push_back(P->Learners.back().get());
  }
  P->F = std::make_unique<Feed>(Sinks, /*Nesting=*/true);
}

Inferrer::~Inferrer() = default;

void Inferrer::observe(const Trace &T, const Event &E) { P->F->observe(T, E); }
void Inferrer::endTrace() { P->F->endTrace(); }
size_t Inferrer::traces() const { return P->F->traces(); }
const std::vector<std::string> &Inferrer::notes() const {
  return P->F->notes();
}

std::vector<Invariant> Inferrer::finish() {
  P->F->endTrace();
  std::vector<Invariant> Out;
  for (auto &L : P->Learners) {
    size_t From = Out.size();
    L->emit(*P->F, Out);
    // Hash-map order is no order: sort each family's invariants.
    std::sort(Out.begin() + static_cast<long>(From), Out.end(),
              [](const Invariant &A, const Invariant &B) {
                return std::tie(A.Relation, A.Scope, A.Subject, A.Other) <
                       std::tie(B.Relation, B.Scope, B.Subject, B.Other);
              });
  }
  return Out;
}

struct Checker::Impl {
  std::vector<std::unique_ptr<CheckSink>> Checks;
  std::unique_ptr<Feed> F;
};

Checker::Checker(const std::vector<Invariant> &Invariants)
    : P(std::make_unique<Impl>()) {
  std::vector<Sink *> Sinks;
  for (const Family &Fam : families()) {
    std::vector<const Invariant *> Mine;
    for (const Invariant &I : Invariants)
      if (I.Family == Fam.Name)
        Mine.push_back(&I);
    if (Mine.empty())
      continue;
    P->Checks.push_back(Fam.Check(std::move(Mine)));
    Sinks.push_back(P->Checks.back().get());
  }
  P->F = std::make_unique<Feed>(Sinks);
  std::vector<std::string> Subjects;
  Subjects.reserve(Invariants.size());
  for (const Invariant &I : Invariants)
    Subjects.push_back(I.Subject);
  P->F->onlyStreamsOf(std::move(Subjects));
}

Checker::~Checker() = default;

void Checker::observe(const Trace &T, const Event &E) { P->F->observe(T, E); }
void Checker::endTrace() { P->F->endTrace(); }

CheckReport Checker::finish() {
  P->F->endTrace();
  CheckReport R;
  R.Records = P->F->records();
  R.Traces = P->F->traces();
  R.Notes = P->F->notes();
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, Violation>> Found;
  uint64_t Order = 0;
  for (auto &C : P->Checks)
    for (const CheckSink::Tally &T : C->Tallies) {
      ++R.Invariants;
      R.Unexercised += !T.Touched && !T.Count;
      if (T.Touched || T.Count)
        R.Exercised.push_back(T.Inv);
      if (T.Count)
        Found.push_back({{T.Seq, Order++}, Violation{T.Inv, T.Count, T.First}});
    }
  // By the record that first showed each; ties in the families' order.
  std::sort(Found.begin(), Found.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  for (auto &[Seq, V] : Found)
    R.Violations.push_back(std::move(V));
  return R;
}

CheckReport mergeReports(std::vector<CheckReport> Parts, size_t Invariants) {
  CheckReport R;
  R.Invariants = Invariants;
  std::set<const Invariant *> Exercised;
  for (CheckReport &P : Parts) {
    R.Records += P.Records;
    R.Traces += P.Traces;
    for (std::string &N : P.Notes)
      R.Notes.push_back(std::move(N));
    Exercised.insert(P.Exercised.begin(), P.Exercised.end());
    // A part's violations come in the order their first record was read:
    // after every earlier part's, as one Checker over all would see them.
    for (Violation &V : P.Violations) {
      auto Same =
          std::find_if(R.Violations.begin(), R.Violations.end(),
                       [&](const Violation &W) { return W.Inv == V.Inv; });
      if (Same == R.Violations.end())
        R.Violations.push_back(std::move(V));
      else
        Same->Count += V.Count;
    }
  }
  R.Exercised.assign(Exercised.begin(), Exercised.end());
  R.Unexercised = Invariants - std::min(Invariants, Exercised.size());
  return R;
}

} // namespace sonde::trace::inv
