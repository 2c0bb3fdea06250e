//===- ReportData.h - The parts of `sonde report`'s data --------*- C++ -*-===//
//
// `sonde report` embeds one JSON object into its page (Report.cpp); each
// part of the page has its own writer here: the processes, time by
// category and name (TimeTables.cpp), one step (Step.cpp), the watch
// plots (Watches.cpp), the per-epoch table (Epochs.cpp). Private to the
// trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_REPORT_REPORTDATA_H
#define SONDE_TRACE_REPORT_REPORTDATA_H

#include "Export.h"
#include "Json.h"
#include "summary/DurationSketch.h"
#include "summary/SelfTime.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sonde::trace::report {

/// Self time, streamed: fed one trace's events in order, it hands each
/// region's self time (its duration less its direct children's on its
/// thread, never below 0) to `Done(Payload, Self)` once no later event can
/// be its child: when a region of its thread starts at or after its end,
/// or at finish(). Memory: the regions open at one time. `OutOfOrder`: the
/// reader has given events out of order (past the look-ahead, a region
/// after what it holds): a region that finds no parent one level up keeps
/// its time for the next region of the level above, as the summary's
/// SelfTimeCounter does (summary/SelfTime.cpp says why that one is its
/// parent).
template <class Payload> class SelfTimes {
public:
  template <class DoneFn>
  void add(const Event &E, const Payload &P, DoneFn &&Done,
           bool OutOfOrder = false) {
    if (E.Kind != EventKind::Region)
      return;
    ThreadState &TS = Threads[E.Thread];
    std::vector<Open> &Stack = TS.Stack;
    int64_t End = E.Ts + E.Dur;
    while (!Stack.empty() && (Stack.back().End <= E.Ts ||
                              (OutOfOrder && Stack.back().Level > E.Level &&
                               Stack.back().Start >= E.Ts))) {
      Done(Stack.back().P, std::max<int64_t>(Stack.back().Self, 0));
      Stack.pop_back();
    }
    if (!Stack.empty() && (!OutOfOrder || Stack.back().Level + 1 >= E.Level)) {
      if (End <= Stack.back().End)
        Stack.back().Self -= E.Dur;
    } else if (OutOfOrder && E.Level > 0) { // its parent comes after it
      if (TS.Orphaned.size() <= E.Level)
        TS.Orphaned.resize(E.Level + 1);
      TS.Orphaned[E.Level] += E.Dur;
    }
    int64_t Self = E.Dur;
    if (E.Level + 1 < TS.Orphaned.size()) {
      Self -= TS.Orphaned[E.Level + 1];
      TS.Orphaned[E.Level + 1] = 0;
    }
    Stack.push_back({E.Ts, End, Self, E.Level, P});
  }
  template <class DoneFn> void finish(DoneFn &&Done) {
    for (auto &[Thread, TS] : Threads)
      for (const Open &O : TS.Stack)
        Done(O.P, std::max<int64_t>(O.Self, 0));
    Threads.clear();
  }

private:
  struct Open {
    int64_t Start, End, Self;
    uint32_t Level;
    Payload P;
  };
  struct ThreadState {
    std::vector<Open> Stack;
    std::vector<int64_t> Orphaned; ///< per level: time for a late parent
  };
  std::map<uint32_t, ThreadState> Threads;
};

/// The arg `Name` in force at `E`, or null.
const Value *argOf(const Event &E, std::string_view Name);

/// The number a watch plots: a scalar (a number, or a one-element tensor's
/// value), or a tensor summary's mean. Model state (one record per
/// parameter) and API calls are not plotted: their records are not one
/// series.
bool plotValue(const SiteInfo &S, const Value &V, double &Out);

/// `categories`, `names` and `names_total`: self and total time by top
/// category and by name (self time: nested regions are not counted twice).
/// Fed every trace's events in one pass.
class TimeTables {
public:
  void beginTrace(const Trace &T);
  void add(const Event &E);
  void endTrace();
  void write(JsonOut &J);

  struct Row {
    std::string Cat, Name;
    uint64_t Count = 0;
    int64_t Total = 0, Self = 0;
    DurationSketch Durs;
  };

private:
  std::map<std::string, int64_t> CatSelf, CatTotal;
  std::map<std::pair<std::string, std::string>, Row> Names;
  const Trace *Current = nullptr;
  /// Per site of Current (and one slot for an unknown site): its row (map
  /// nodes stay put) and its category's self time.
  std::vector<Row *> RowOf;
  std::vector<int64_t *> CatSelfOf;
  SelfTimes<uint32_t> Self;
};

/// The region that stands for "one step", from the first process: given
/// by name (`--step`), else the most frequent region whose instances contain
/// other regions (a loop body holding forward, backward, step), else the
/// most frequent region; each site's candidate is its middle instance.
/// Two passes: count() every event, then candidate() every event until
/// done() (the candidates and the regions nested in them are known).
class StepFinder {
public:
  explicit StepFinder(std::string Wanted) : Wanted(std::move(Wanted)) {}
  void count(const Event &E);
  /// Between the passes: false with `Error` set when the wanted region is
  /// not in `T`.
  bool endCount(const Trace &T, std::string &Error);
  void candidate(const Event &E);
  bool done() const;

  /// After the second pass: the step's place in the trace's events (-1:
  /// none) and a copy of it.
  int64_t index() const;
  const Event &step() const;

private:
  struct Candidate {
    int64_t Index = -1;
    Event E;
    size_t Children = 0;
  };
  const Candidate *chosen() const;

  std::string Wanted;
  std::map<uint32_t, uint64_t> Count;  ///< finished regions per site
  std::map<uint32_t, uint64_t> Target; ///< per site: its middle one
  std::map<uint32_t, uint64_t> Seen;
  std::map<uint32_t, Candidate> Cands;
  std::vector<Candidate *> Counting; ///< candidates whose end is ahead
  int64_t Index = -1;
};

/// `step`: the step's region and the spans inside it (a third, partial
/// pass over `T`), or null.
void writeStep(JsonOut &J, const Trace &T, const StepFinder &Step);

/// `watches`: each numeric watch, in order, a line per process. Two passes
/// over each trace: count() its events, then point() them; many points are
/// bucketed as they come.
class WatchPlots {
public:
  void beginCount(size_t TraceIndex, const Trace &T);
  void count(const Event &E);
  void endCount();
  void beginPoints(size_t TraceIndex, const Trace &T);
  void point(const Event &E);
  void write(JsonOut &J, const std::vector<Trace> &Traces);

  using Point = std::pair<double, double>; ///< x, value
  /// One process's line of one watch, downsampled as its points arrive:
  /// its length is known (the first pass counted it), so its points fall in
  /// buckets of a known size, each keeping its min and max (the first
  /// smallest and the last largest, in their order) so spikes survive.
  struct Line {
    uint64_t Total = 0;         ///< points, from the first pass
    uint64_t Added = 0;         ///< points so far, in the second
    size_t Bucket = 1;          ///< points per bucket; 1 keeps every point
    std::vector<Point> Pending; ///< the current bucket's points
    std::vector<Point> Kept;
    void add(const Point &P);
    void flush();
  };
  struct Series {
    std::string Name, Func, XName;
    uint64_t Count = 0;
    size_t FirstTrace = 0;        ///< the trace of its first point
    bool HasStep = false;         ///< its first point had a step in its context
    std::map<size_t, Line> Lines; ///< per process (index into Traces)
  };

private:
  /// The site of `E` and its plotted number in `V`, when E is a point of
  /// a plot; null otherwise.
  const SiteInfo *plotted(const Event &E, double &V) const;

  using Key = std::pair<std::string, std::string>;
  std::map<Key, Series> Watches;
  std::vector<Key> Order;
  /// Per trace: each epoch's first step, counted on across epochs.
  std::vector<std::map<int64_t, int64_t>> StepBases;
  std::map<int64_t, int64_t> MaxStep; ///< per epoch, while counting
  size_t TI = 0;
  const Trace *Current = nullptr;
  size_t Lines = 0;
};

/// `epochs`: per epoch of the first process, its wall time, steps (records
/// of the step's site), self time by category and the last value of each
/// plotted watch. Fed the first trace's events in one pass.
class EpochTable {
public:
  void beginTrace(const Trace &T) { Current = &T; }
  void add(const Event &E);
  void endTrace();
  void write(JsonOut &J, const std::vector<Trace> &Traces,
             const StepFinder &Step);

private:
  struct Row {
    int64_t Start = INT64_MAX, End = INT64_MIN;
    std::map<uint32_t, uint64_t> Regions; ///< per site
    std::map<std::string, int64_t> CatSelf;
    std::map<std::string, double> LastWatch;
  };
  const Trace *Current = nullptr;
  std::map<int64_t, Row> Rows;
  std::set<std::string> Cats, WatchNames;
  SelfTimes<int64_t *> Self;
};

} // namespace sonde::trace::report

#endif // SONDE_TRACE_REPORT_REPORTDATA_H
