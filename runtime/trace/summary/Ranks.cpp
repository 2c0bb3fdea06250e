//===- Ranks.cpp - Each rank's step, computation, communication, wait -----===//
//
// rankTable(): the first pass over each trace finds the step (the loop body
// recorded most often over all ranks: a loop probe's `<name>.block`, or its
// `<name>.iter` when only that) and each file's window, from its first
// step's start to its last step's end. The second pass sweeps the window's
// regions in start order (the order a trace gives them) and keeps three
// unions of intervals: computation (`compute.*`), communication (`comm.*`,
// both sides) and the caller's side of communication (a `comm.*` region
// whose name is not a backend's `<backend>:<op>`: the issue and the wait in
// the program's own threads). Their lengths are the table's times; the
// intersection of the first two is the overlap. A union holds one open
// piece, and the overlap sweep the communication pieces that can still meet
// a later computation piece: memory stays bounded by what is open at once.
//
//===----------------------------------------------------------------------===//

#include "Ranks.h"

#include "Export.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

namespace sonde::trace::ranks {
namespace {

struct Piece {
  int64_t S = 0, E = 0;
};

/// The union of intervals given in order of their starts: one open piece;
/// a piece is final once an interval starts after its end.
class Union {
public:
  /// Adds [S, E); returns the piece this finished, if any.
  std::optional<Piece> add(int64_t S, int64_t E) {
    if (!Open) {
      Cur = {S, E};
      Open = true;
      return std::nullopt;
    }
    if (S <= Cur.E) {
      Cur.E = std::max(Cur.E, E);
      return std::nullopt;
    }
    Piece Done = Cur;
    Total += Done.E - Done.S;
    Cur = {S, E};
    return Done;
  }
  std::optional<Piece> finish() {
    if (!Open)
      return std::nullopt;
    Open = false;
    Total += Cur.E - Cur.S;
    return Cur;
  }
  const Piece *current() const { return Open ? &Cur : nullptr; }
  int64_t total() const { return Total; }

private:
  Piece Cur;
  bool Open = false;
  int64_t Total = 0;
};

int64_t meet(const Piece &A, const Piece &B) {
  return std::max<int64_t>(0, std::min(A.E, B.E) - std::max(A.S, B.S));
}

/// Computation and communication swept together, with their overlap.
class Sweep {
public:
  void compute(int64_t S, int64_t E) {
    if (auto Done = Compute.add(S, E))
      closeCompute(*Done);
  }
  void comm(int64_t S, int64_t E, bool Caller) {
    if (auto Done = Comm.add(S, E))
      CommDone.push_back(*Done);
    if (Caller)
      Wait.add(S, E);
  }
  void finish(RankRow &R) {
    if (auto Done = Compute.finish())
      closeCompute(*Done);
    Comm.finish();
    Wait.finish();
    R.ComputeNs += Compute.total();
    R.CommNs += Comm.total();
    R.WaitNs += Wait.total();
    R.OverlapNs += Overlap;
  }

private:
  /// Every interval starting before P's end has been given (a later one
  /// started after it), so every communication piece that meets P is here;
  /// those that end inside P cannot meet a later computation piece.
  void closeCompute(const Piece &P) {
    for (const Piece &Q : CommDone)
      Overlap += meet(P, Q);
    if (const Piece *Q = Comm.current())
      Overlap += meet(P, *Q);
    while (!CommDone.empty() && CommDone.front().E <= P.E)
      CommDone.pop_front();
  }
  Union Compute, Comm, Wait;
  std::deque<Piece> CommDone;
  int64_t Overlap = 0;
};

/// A backend's own record of an operation: `gloo:all_reduce`, `nccl:...`
/// (docs/distributed.md); the caller's probes have plain names.
bool backendSide(const std::string &Name) {
  size_t Colon = Name.find(':');
  return Colon != std::string::npos && Colon > 0 && Name.find('.') > Colon;
}

/// What the first pass learns of one file.
struct Outline {
  /// Per loop site (category, name): records, first start, last end.
  struct Loop {
    uint64_t Count = 0;
    int64_t First = MaxTimeNs, Last = 0;
  };
  std::map<std::pair<std::string, std::string>, Loop> Loops;
  int64_t First = MaxTimeNs, Last = 0; ///< of every event
};

Outline outline(const Trace &T) {
  Outline O;
  for (const Event &E : events(T)) {
    int64_t End = E.Kind == EventKind::Region ? E.Ts + E.Dur : E.Ts;
    O.First = std::min(O.First, E.Ts);
    O.Last = std::max(O.Last, End);
    const SiteInfo &S = T.site(E.Site);
    if (E.Kind != EventKind::Region || S.Kind != SiteKind::Loop)
      continue;
    Outline::Loop &L = O.Loops[{S.Category, S.Name}];
    ++L.Count;
    L.First = std::min(L.First, E.Ts);
    L.Last = std::max(L.Last, End);
  }
  return O;
}

bool endsWith(const std::string &S, const char *Suffix) {
  size_t N = std::char_traits<char>::length(Suffix);
  return S.size() >= N && S.compare(S.size() - N, N, Suffix) == 0;
}

double median(std::vector<int64_t> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  if (N == 0)
    return 0;
  return N % 2 ? static_cast<double>(V[N / 2])
               : (static_cast<double>(V[N / 2 - 1]) +
                  static_cast<double>(V[N / 2])) /
                     2;
}

/// max / median, 1 when the median is 0.
double ratio(const std::vector<int64_t> &V) {
  double Med = median(V);
  int64_t Max = V.empty() ? 0 : *std::max_element(V.begin(), V.end());
  return Med > 0 ? static_cast<double>(Max) / Med : 1.0;
}

} // namespace

int64_t RankRow::stepNs() const {
  return Steps ? WindowNs / static_cast<int64_t>(Steps) : WindowNs;
}

int64_t RankRow::busyNs() const {
  int64_t Busy = std::max<int64_t>(0, WindowNs - WaitNs);
  return Steps ? Busy / static_cast<int64_t>(Steps) : Busy;
}

std::optional<RankTable> rankTable(const std::vector<Trace> &Traces) {
  std::map<int64_t, size_t> ByRank;
  for (const Trace &T : Traces)
    ByRank.emplace(T.Process.Rank, 0);
  if (ByRank.size() < 2)
    return std::nullopt;

  std::vector<Outline> Outlines;
  Outlines.reserve(Traces.size());
  std::map<std::pair<std::string, std::string>, uint64_t> LoopCounts;
  for (const Trace &T : Traces) {
    Outlines.push_back(outline(T));
    for (const auto &[Key, L] : Outlines.back().Loops)
      LoopCounts[Key] += L.Count;
  }
  // The most frequent loop; of equals, a body (`.block`) before a fetch.
  std::optional<std::pair<std::string, std::string>> Step;
  auto Rank = [](const std::pair<std::string, std::string> &K, uint64_t N) {
    return std::make_tuple(N, endsWith(K.second, ".block"));
  };
  uint64_t StepCount = 0;
  for (const auto &[Key, N] : LoopCounts)
    if (!Step || Rank(Key, N) > Rank(*Step, StepCount)) {
      Step = Key;
      StepCount = N;
    }

  RankTable Table;
  if (Step)
    Table.Step = Step->first + "/" + Step->second;
  for (auto &[R, Index] : ByRank) {
    Index = Table.Rows.size();
    Table.Rows.emplace_back();
    Table.Rows.back().Rank = R;
  }
  for (size_t I = 0; I < Traces.size(); ++I) {
    const Trace &T = Traces[I];
    RankRow &Row = Table.Rows[ByRank[T.Process.Rank]];
    ++Row.Processes;
    int64_t From = Outlines[I].First, To = Outlines[I].Last;
    const Outline::Loop *L = nullptr;
    if (Step) {
      auto It = Outlines[I].Loops.find(*Step);
      if (It != Outlines[I].Loops.end())
        L = &It->second;
    }
    if (L) {
      From = L->First;
      To = L->Last;
    }
    if (To <= From)
      continue;
    Row.WindowNs += To - From;
    Sweep Sw;
    int64_t LastStart = From;
    for (const Event &E : events(T)) {
      if (E.Kind != EventKind::Region)
        continue;
      const SiteInfo &S = T.site(E.Site);
      if (L && S.Category == Step->first && S.Name == Step->second)
        ++Row.Steps;
      // Clipped to the window; a late event (past the look-ahead) is
      // taken as starting where the sweep stands.
      int64_t Begin = std::max({E.Ts, From, LastStart});
      int64_t End = std::min(E.Ts + E.Dur, To);
      if (End <= Begin)
        continue;
      LastStart = Begin;
      std::string Top = S.topCategory();
      if (Top == "compute") {
        Sw.compute(Begin, End);
      } else if (Top == "comm") {
        bool Caller = !backendSide(S.Name);
        Row.CallerSide |= Caller;
        Sw.comm(Begin, End, Caller);
      }
    }
    Sw.finish(Row);
  }

  std::vector<int64_t> Busy, StepTimes;
  int64_t MostBusy = -1;
  for (const RankRow &Row : Table.Rows) {
    Busy.push_back(Row.busyNs());
    StepTimes.push_back(Row.stepNs());
    if (Row.busyNs() > MostBusy) {
      MostBusy = Row.busyNs();
      Table.Slowest = Row.Rank;
    }
  }
  Table.Imbalance = ratio(Busy);
  Table.StepImbalance = ratio(StepTimes);
  return Table;
}

} // namespace sonde::trace::ranks
