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
// into one SONDE_OUTPUT. The first trace of a job read is the reference.
// Of each compared stream it keeps the first 1024 values (a 64-bit hash
// each) and then one digest per block of 1024 values; each other rank's
// k-th record is compared with the reference's as it arrives: exactly for
// the first 1024 records of a stream, by block after (a violation then
// names the block's last record and the range it spans). Memory: 8 KB a
// stream, and 8 bytes per 1024 records beyond, for one rank of each job.
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

constexpr uint64_t ExactRecords = 1024, BlockRecords = 1024;

/// An order-dependent digest of a block's hashes.
uint64_t mix(uint64_t Acc, uint64_t H) {
  return (Acc ^ H) * 0x100000001b3ULL + (Acc >> 17) + 1;
}

/// What the reference rank recorded of one stream: its first
/// ExactRecords values, then one digest per BlockRecords values.
struct RefStream {
  std::vector<uint64_t> Values, Blocks;
  uint64_t Acc = 0, N = 0;
  uint64_t TailN = 0; ///< the records of a last, partial block
  uint64_t First = 0;
  bool Varies = false;

  void add(uint64_t H) {
    if (N == 0)
      First = H;
    Varies |= H != First;
    if (N < ExactRecords) {
      Values.push_back(H);
    } else {
      Acc = mix(Acc, H);
      if ((N - ExactRecords + 1) % BlockRecords == 0) {
        Blocks.push_back(Acc);
        Acc = 0;
      }
    }
    ++N;
  }
  /// The reference trace ended: its last, partial block counts too.
  void end() {
    if (N > ExactRecords && (N - ExactRecords) % BlockRecords) {
      TailN = (N - ExactRecords) % BlockRecords;
      Blocks.push_back(Acc);
    }
  }
};

/// Another rank's place in one stream, and where its last record was.
struct Follower {
  uint64_t N = 0, Acc = 0;
  int64_t Ts = 0;
  uint32_t Thread = 0, Site = 0;
};

/// What one record (or a trace's end) compared: Records 0 when nothing
/// was (inside a block, or past the reference's records).
struct Compared {
  uint64_t Records = 0;
  bool Equal = true;
  uint64_t From = 0, To = 0; ///< the records compared (0-based)
};

Compared step(const RefStream &R, Follower &Fo, uint64_t H) {
  uint64_t K = Fo.N++;
  if (K < ExactRecords)
    return K < R.Values.size() ? Compared{1, R.Values[K] == H, K, K}
                               : Compared{};
  Fo.Acc = mix(Fo.Acc, H);
  if ((K - ExactRecords + 1) % BlockRecords)
    return {};
  uint64_t Idx = (K - ExactRecords) / BlockRecords, Acc = Fo.Acc;
  Fo.Acc = 0;
  bool Whole =
      Idx < R.Blocks.size() && !(Idx + 1 == R.Blocks.size() && R.TailN);
  if (!Whole)
    return {};
  return {BlockRecords, R.Blocks[Idx] == Acc, K + 1 - BlockRecords, K};
}

/// At the end of a trace: its last, partial block against the
/// reference's, when both hold as many records.
Compared tail(const RefStream &R, const Follower &Fo) {
  if (Fo.N <= ExactRecords)
    return {};
  uint64_t Rest = (Fo.N - ExactRecords) % BlockRecords;
  uint64_t Idx = (Fo.N - ExactRecords) / BlockRecords;
  if (!Rest || Idx + 1 != R.Blocks.size() || R.TailN != Rest)
    return {};
  return {Rest, R.Blocks[Idx] == Fo.Acc, Fo.N - Rest, Fo.N - 1};
}

/// The jobs of the traces read, and where the current trace stands in its
/// own: whether it is its job's reference, and its place in each stream.
class Jobs {
public:
  struct Job {
    std::unordered_map<uint32_t, RefStream> Ref;
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
    std::string Dir = jobDirectory(T->Path);
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

  /// A value of a stream of the current trace: kept (the reference) or
  /// compared with the reference's (the others).
  Compared add(const Point &P, uint64_t H) {
    if (IsRef) {
      Cur->Ref[P.Stream].add(H);
      return {};
    }
    auto It = Cur->Ref.find(P.Stream);
    if (It == Cur->Ref.end())
      return {};
    Follower &Fo = Followers[P.Stream];
    Fo.Ts = P.E->Ts;
    Fo.Thread = P.E->Thread;
    Fo.Site = P.Site;
    return step(It->second, Fo, H);
  }

  /// The trace ended: the reference's last blocks are closed, the other
  /// ranks' last blocks compared (Fn(stream, follower, compared)).
  template <class Fn> void endTrace(Fn &&Each) {
    if (Cur && IsRef)
      for (auto &[Stream, R] : Cur->Ref)
        R.end();
    else if (Cur)
      for (auto &[Stream, Fo] : Followers) {
        auto It = Cur->Ref.find(Stream);
        if (It != Cur->Ref.end())
          if (Compared C = tail(It->second, Fo); C.Records)
            Each(Stream, Fo, C);
      }
    Resolved = false;
    Cur = nullptr;
    Followers.clear();
  }

private:
  std::unordered_map<std::string, Job> All;
  Job *Cur = nullptr;
  bool Resolved = false, IsRef = false;
  std::unordered_map<uint32_t, Follower> Followers;
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
    if (!J.job() || !isRankStream(P))
      return;
    Compared C = J.add(P, hashOf(P.V));
    if (!C.Records)
      return;
    Stats &S = Streams[P.Stream];
    S.Compared += C.Records;
    S.Equal &= C.Equal;
  }

  void traceEnded(const Feed &) override {
    if (Jobs::Job *Job = J.job(); Job && J.isRef())
      for (auto &[Stream, R] : Job->Ref)
        Streams[Stream].Varies |= R.Varies;
    J.endTrace([&](uint32_t Stream, const Follower &, const Compared &C) {
      Stats &S = Streams[Stream];
      S.Compared += C.Records;
      S.Equal &= C.Equal;
    });
  }

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
    if (!J.job() || !isRankStream(P) || about(F, P.Stream).empty())
      return;
    Compared C = J.add(P, hashOf(P.V));
    if (C.Records)
      tally(F, P.Stream, C,
            [&] { return F.where(*P.E, P.Site, detail(F, C, &P.V)); });
  }

  void traceEnded(const Feed &F) override {
    J.endTrace([&](uint32_t Stream, const Follower &Fo, const Compared &C) {
      tally(F, Stream, C, [&] {
        return F.whereAt(Fo.Ts, Fo.Thread, Fo.Site, detail(F, C, nullptr));
      });
    });
  }

private:
  std::string detail(const Feed &F, const Compared &C, const Scalar *V) {
    std::string Rank = std::to_string(F.trace()->Process.Rank);
    std::string Ref = std::to_string(J.job()->RefRank);
    if (C.Records == 1 && V)
      return "value " + V->text() + " on rank " + Rank + "; record " +
             std::to_string(C.To + 1) + " of this stream on rank " + Ref +
             " holds another";
    return "records " + std::to_string(C.From + 1) + " to " +
           std::to_string(C.To + 1) + " of this stream on rank " + Rank +
           " differ from rank " + Ref + "'s somewhere (past the first " +
           std::to_string(ExactRecords) +
           ", records are compared by blocks of " +
           std::to_string(BlockRecords) + ")";
  }

  /// Counts the comparison for the stream's invariants; where it broke
  /// them is made only then.
  template <class MakeWhere>
  void tally(const Feed &F, uint32_t Stream, const Compared &C,
             MakeWhere &&At) {
    const std::vector<size_t> &Mine = about(F, Stream);
    for (size_t I : Mine)
      Tallies[I].Touched = true;
    if (C.Equal || Mine.empty())
      return;
    Where W = At();
    for (size_t I : Mine)
      violate(I, F, W);
  }
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
