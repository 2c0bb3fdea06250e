//===- Ranks.cpp - ranks: what every rank of a job holds alike ------------===//
//
// `equal`: in a data-parallel job, the k-th record of a value stream holds
// the same value on every rank (TrainCheck's ConsistencyRelation: the
// parameters, and the gradients after the all-reduce, are the same
// everywhere). A rank that skips the all-reduce, or steps on gradients it
// did not average, breaks it at the first step after.
//
// The ranks of one job are the traces with the same directory, program
// and world size (> 1), each rank once: a run writes all its ranks' files
// into one SONDE_OUTPUT. The first trace of a job read is the reference:
// the value of each of its records of the streams concerned is kept (a
// 64-bit hash, 8 bytes a record), and each other rank's k-th record is
// compared with the reference's k-th as it arrives. So memory grows with
// the records of the compared streams of one rank (one value per parameter
// and field per step, for `state:` records), not with the other ranks.
//
// Kept for model state fields and watches that are not constant (a
// constant is equal everywhere by itself: value.fixed says it), compared
// at least MinSupport times across ranks, always equal. Support: the
// comparisons.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <cstring>
#include <functional>
#include <unordered_map>

namespace sonde::trace::inv {
namespace {

bool isRankStream(const Point &P) {
  return P.O == Origin::State || P.O == Origin::Watch;
}

uint64_t hashOf(const Scalar &V) {
  if (V.K == Scalar::Kind::Str)
    return std::hash<std::string>()(V.S) * 31 + 5;
  uint64_t Bits;
  std::memcpy(&Bits, &V.N, sizeof(Bits));
  return (Bits ^ (Bits >> 29)) * 0x9e3779b97f4a7c15ULL +
         static_cast<uint64_t>(V.K);
}

/// The jobs of the traces read, and where the current trace stands in its
/// own: whether it is its job's reference, and each stream's record count.
class Jobs {
public:
  struct Job {
    std::unordered_map<uint32_t, std::vector<uint64_t>> Ref;
    std::vector<int64_t> Ranks;
    int64_t RefRank = 0;
  };

  /// The job of the current trace (null: one rank alone, or a rank this
  /// job already had, which is said once).
  Job *resolve(Feed &F) {
    if (Resolved)
      return Cur;
    Resolved = true;
    const Trace *T = F.trace();
    if (!T || T->Process.WorldSize <= 1)
      return Cur = nullptr;
    std::string Dir = T->Path.substr(0, T->Path.find_last_of('/') + 1);
    std::string Key = Dir + '\0' + T->Process.Program + '\0' +
                      std::to_string(T->Process.WorldSize);
    Job &J = All[Key];
    for (int64_t R : J.Ranks)
      if (R == T->Process.Rank) {
        F.note(T->Path + ": a second trace of rank " + std::to_string(R) +
               " of " + T->Process.Program + " in " +
               (Dir.empty() ? std::string("this directory") : Dir) +
               ": which ranks ran together is unknown, so its values are "
               "not compared across ranks (give each run its own "
               "directory)");
        return Cur = nullptr;
      }
    IsRef = J.Ranks.empty();
    if (IsRef)
      J.RefRank = T->Process.Rank;
    J.Ranks.push_back(T->Process.Rank);
    return Cur = &J;
  }
  /// The job resolve() found for the current record's trace.
  Job *job() const { return Cur; }
  bool isRef() const { return IsRef; }
  /// The place of this record among the stream's records in this trace.
  uint64_t next(uint32_t Stream) { return Count[Stream]++; }
  void endTrace() {
    Resolved = false;
    Cur = nullptr;
    Count.clear();
  }

private:
  std::unordered_map<std::string, Job> All;
  Job *Cur = nullptr;
  bool Resolved = false, IsRef = false;
  std::unordered_map<uint32_t, uint64_t> Count;
};

class RanksLearner : public Learner {
  struct Stats {
    uint64_t Compared = 0;
    bool Equal = true, Varies = false;
  };
  std::unordered_map<uint32_t, Stats> Streams;
  Jobs J;
  InferOptions Opt;

public:
  explicit RanksLearner(const InferOptions &O) : Opt(O) {}

  void record(Feed &F, const Event &, uint32_t) override { J.resolve(F); }

  void value(const Feed &, const Point &P) override {
    Jobs::Job *Job = J.job();
    if (!Job || !isRankStream(P))
      return;
    uint64_t H = hashOf(P.V), K = J.next(P.Stream);
    Stats &S = Streams[P.Stream];
    if (J.isRef()) {
      std::vector<uint64_t> &R = Job->Ref[P.Stream];
      S.Varies |= !R.empty() && R.front() != H;
      R.push_back(H);
      return;
    }
    auto It = Job->Ref.find(P.Stream);
    if (It == Job->Ref.end() || K >= It->second.size())
      return;
    ++S.Compared;
    S.Equal &= It->second[K] == H;
  }

  void traceEnded(const Feed &) override { J.endTrace(); }

  void emit(const Feed &F, std::vector<Invariant> &Out) override {
    for (auto &[Id, S] : Streams) {
      if (!S.Equal || !S.Varies || S.Compared < Opt.MinSupport)
        continue;
      Invariant I;
      I.Family = "ranks";
      I.Relation = "equal";
      I.Subject = F.name(Id);
      I.Support = S.Compared;
      I.Text =
          quote(I.Subject) + " is the same on every rank, record for record";
      Out.push_back(std::move(I));
    }
  }
};

class RanksCheck : public CheckSink {
  Jobs J;

public:
  using CheckSink::CheckSink;

  void record(Feed &F, const Event &, uint32_t) override { J.resolve(F); }

  void value(const Feed &F, const Point &P) override {
    Jobs::Job *Job = J.job();
    if (!Job || !isRankStream(P))
      return;
    const std::vector<size_t> &Mine = about(F, P.Stream);
    if (Mine.empty())
      return;
    uint64_t H = hashOf(P.V), K = J.next(P.Stream);
    if (J.isRef()) {
      Job->Ref[P.Stream].push_back(H);
      return;
    }
    auto It = Job->Ref.find(P.Stream);
    if (It == Job->Ref.end() || K >= It->second.size())
      return;
    for (size_t I : Mine) {
      Tallies[I].Touched = true;
      if (It->second[K] != H)
        violate(I, F,
                F.where(*P.E, P.Site,
                        "value " + P.V.text() + " on rank " +
                            std::to_string(F.trace()->Process.Rank) +
                            "; record " + std::to_string(K + 1) +
                            " of this stream on rank " +
                            std::to_string(Job->RefRank) + " holds another"));
    }
  }

  void traceEnded(const Feed &) override { J.endTrace(); }
};

} // namespace

Family ranksFamily() {
  return {"ranks",
          {"equal"},
          [](const InferOptions &O) -> std::unique_ptr<Learner> {
            return std::make_unique<RanksLearner>(O);
          },
          [](std::vector<const Invariant *> I) -> std::unique_ptr<CheckSink> {
            return std::make_unique<RanksCheck>(std::move(I));
          }};
}

} // namespace sonde::trace::inv
