//===- Families.h - The relation families and their registry ----*- C++ -*-===//
//
// A family learns some relations from the Feed (a Learner) and checks the
// invariants of those relations (a CheckSink). Each family is one file
// (Order.cpp, Containment.cpp, State.cpp, Value.cpp, Argument.cpp);
// Registry.cpp lists them, so adding one is a file and a line.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_INVARIANTS_FAMILIES_H
#define SONDE_TRACE_INVARIANTS_FAMILIES_H

#include "Feed.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace sonde::trace::inv {

class Learner : public Sink {
public:
  /// Appends the invariants that held at least Options.MinSupport times
  /// and are not trivially true.
  virtual void emit(const Feed &F, std::vector<Invariant> &Out) = 0;
};

/// A family's checks: one tally per invariant it was given.
class CheckSink : public Sink {
public:
  explicit CheckSink(std::vector<const Invariant *> Invs);
  /// Not copied: Cache points into this object's maps.
  CheckSink(const CheckSink &) = delete;
  CheckSink &operator=(const CheckSink &) = delete;
  struct Tally {
    const Invariant *Inv;
    uint64_t Count = 0;
    uint64_t Seq = 0; ///< the record count when first violated
    bool Touched = false;
    Where First;
  };
  std::vector<Tally> Tallies;
  /// A check's value() looks only at streams its invariants name.
  bool wants(const Feed &F, uint32_t Stream) override {
    return !about(F, Stream).empty();
  }

protected:
  void violate(size_t I, const Feed &F, const Where &W);
  /// The invariants (indices in Tallies) whose `Subject` (or `Scope`, with
  /// ByScope) names interned id `Id`; resolved once per id. Inline: every
  /// value a check is given asks it (3 % of `sonde check` when it was a
  /// call testing a table of bits).
  const std::vector<size_t> &about(const Feed &F, uint32_t Id,
                                   bool ByScope = false) {
    const auto &C = Cache[ByScope];
    if (Id < C.size() && C[Id])
      return *C[Id];
    return resolve(F, Id, ByScope);
  }
  /// The interned id of invariant I's Subject (or Other, or Scope), or -1
  /// while no record named it; cached once found.
  /// Inline, as about(): asked for each scope closed and value sent.
  int64_t idOf(const Feed &F, size_t I, bool Other = false,
               bool Scope = false) {
    const auto &V = Ids[Scope ? 2 : Other ? 1 : 0];
    if (I < V.size() && V[I] >= 0)
      return V[I];
    return findId(F, I, Other, Scope);
  }

private:
  const std::vector<size_t> &resolve(const Feed &F, uint32_t Id, bool ByScope);
  int64_t findId(const Feed &F, size_t I, bool Other, bool Scope);
  std::unordered_map<std::string, std::vector<size_t>> BySubject, ByScopeKey;
  /// Per interned id: its list in the map above (whose nodes stay where
  /// they are), or NoInvariants; null while not resolved.
  std::vector<const std::vector<size_t> *> Cache[2];
  std::vector<int64_t> Ids[3];
};

struct Family {
  const char *Name;
  /// The relations it owns, as the file names them.
  std::vector<const char *> Relations;
  std::unique_ptr<Learner> (*Learn)(const InferOptions &);
  std::unique_ptr<CheckSink> (*Check)(std::vector<const Invariant *>);
};

/// Every family, in the order the file lists their invariants.
const std::vector<Family> &families();

// The families (one file each).
Family orderFamily();
Family containmentFamily();
Family stateFamily();
Family valueFamily();
Family argumentFamily();
Family ranksFamily();

/// What a chain of records (consecutive records of a stream) keeps, per
/// thread: records of two threads are never consecutive. Few threads
/// record one stream, so a list searched in order is enough.
template <class T> class PerThread {
  std::vector<std::pair<uint32_t, T>> V;

public:
  T &operator[](uint32_t Thread) {
    for (auto &P : V)
      if (P.first == Thread)
        return P.second;
    V.emplace_back(Thread, T{});
    return V.back().second;
  }
  void clear() { V.clear(); }
};

/// The previous record of a chain.
struct Link {
  Scalar V;
  bool Have = false;
  uint64_t Pending = 0; ///< fixed, same: the iteration of a deviation
};

/// Per stream, what value.fixed, argument.same and state.constant_within
/// need: whether the stream is constant, constant but for the last record
/// of each iteration of an enclosing scope, or constant within each
/// iteration of one. Candidate scopes are the regions open around every
/// record of the stream; bounded by the nesting depth.
struct Constancy {
  uint64_t N = 0;
  Scalar First;
  bool AllEqual = true;
  struct Cand {
    uint32_t Scope = 0;
    uint64_t Iters = 0;
    bool ExceptLast = true, Within = true;
    /// The previous record's iteration and value, and the iteration of a
    /// deviation, per thread.
    struct Last {
      uint64_t Iter = 0, Pending = 0;
      Scalar V;
    };
    PerThread<Last> Links;
  };
  std::vector<Cand> Cands;

  void add(const Point &P);
  /// The innermost scope whose iterations the stream is constant in but
  /// for each one's last record (null if none). Informative only when an
  /// iteration holds several records of the stream.
  const Cand *exceptLast() const;
  /// The innermost scope whose iterations the stream is constant within,
  /// changing only from one to the next.
  const Cand *within() const;
};

/// The iteration of scope site `Scope` among the open regions, or 0.
uint64_t iterationOf(const std::vector<OpenScope> &Stack, uint32_t Scope);

/// The phrase for a site or stream key in messages: `'key'`.
std::string quote(const std::string &Key);

} // namespace sonde::trace::inv

#endif // SONDE_TRACE_INVARIANTS_FAMILIES_H
