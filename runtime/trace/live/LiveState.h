//===- LiveState.h - What `sonde live` shows, kept as records pass -*- C++
//-*-===//
//
// The dashboard and the plain lines of `sonde live` show the state of a run
// as its records arrive: per process, its epoch and step (the `epoch` and
// `step` args in force, docs/probe-spec.md) and how many steps it has
// done; per watched scalar (loss first), its latest value and its recent
// values; the self time of each top category over the last N seconds of
// the run's clock; the writer's drops. LiveState keeps that, in memory
// bounded by the number of processes, watches and categories (and the
// records of one window), never by the length of the run.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_LIVESTATE_H
#define SONDE_TRACE_LIVE_LIVESTATE_H

#include "live/Follower.h"
#include "live/LiveRates.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace sonde::trace::live {

/// One followed process.
struct ProcessView {
  const FileFollower *File = nullptr;
  int64_t Rank = 0;
  uint64_t Pid = 0;
  std::string Program;
  bool HasEpoch = false, HasStep = false;
  int64_t Epoch = 0, Step = 0;
  /// Steps seen: how many times the (epoch, step) pair changed.
  uint64_t Steps = 0;
  int64_t LastNs = 0; ///< the end of its latest record
  /// Per thread, the time of the regions ended at each level below the
  /// one running: a region's self time is its length less theirs.
  std::map<uint32_t, std::vector<int64_t>> ChildTime;
};

/// One watched scalar.
struct WatchView {
  std::string Name;
  /// The file its values are taken from (the first that recorded it: ranks
  /// mixed in one line would zigzag).
  const FileFollower *From = nullptr;
  double Last = 0;
  uint64_t Count = 0;
  std::deque<double> Recent; ///< at most RecentValues
  static constexpr size_t RecentValues = 64;
};

class LiveState {
public:
  /// `WindowNs`: how far back "time per category" looks.
  explicit LiveState(int64_t WindowNs) : WindowNs(WindowNs) {}

  void started(const FileFollower &F);
  void event(const FileFollower &F, const Event &E);
  void ended(const FileFollower &F);

  /// The processes in rank order, then pid.
  std::vector<const ProcessView *> processes() const;
  /// The watches, loss first (names with "loss"), then as first seen.
  std::vector<const WatchView *> watches() const;
  /// Self time per top category within the window that ends at the latest
  /// record, longest first.
  std::vector<std::pair<std::string, int64_t>> categoryTime() const;
  int64_t windowNs() const { return WindowNs; }
  /// The earliest process start (ns since the Unix epoch), 0 before any.
  int64_t startNs() const { return StartNs; }
  /// The latest record end seen (the run's "now"), 0 before any.
  int64_t latestNs() const { return LatestNs; }
  /// The process that is furthest behind in steps, when there are several
  /// with steps and they differ; null otherwise.
  const ProcessView *slowest() const;
  const ProcessView *fastest() const;
  uint64_t records() const { return Records; }
  /// The training rates at the last tickRates(), and their recent train
  /// rates (for a sparkline).
  const LiveRateSample &rates() const { return RateNow; }
  const std::deque<double> &recentTrainRates() const { return Rates.recent(); }
  bool anySteps() const { return Rates.any(); }
  /// Takes the rates now: once per refresh.
  const LiveRateSample &tickRates() {
    RateNow = Rates.tick();
    return RateNow;
  }

private:
  int64_t WindowNs;
  LiveRates Rates;
  LiveRateSample RateNow;
  int64_t StartNs = 0, LatestNs = 0;
  uint64_t Records = 0;
  std::map<const FileFollower *, ProcessView> Procs;
  std::vector<WatchView> Watches;
  std::map<std::string, size_t> WatchIndex;
  /// Self time per category of the regions that ended in one bucket of
  /// time (a hundredth of the window): memory by the window, not by the
  /// number of records in it.
  struct Bucket {
    int64_t Index; ///< its start / BucketNs
    std::vector<int64_t> SelfNs;
  };
  std::deque<Bucket> Window;
  int64_t bucketNs() const { return std::max<int64_t>(1, WindowNs / 100); }
  std::vector<std::string> Categories;
  std::map<std::string, size_t, std::less<>> CategoryIndex;
  ProcessView &view(const FileFollower &F);
};

/// The argument `Name` in force on `E`, or null.
const Value *liveArg(const Event &E, std::string_view Name);

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_LIVESTATE_H
