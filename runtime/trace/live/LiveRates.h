//===- LiveRates.h - Training rates of files being written -----*- C++ -*-===//
//
// `sonde live`'s train, loading and compute rates: the summary's own
// RateCounter (summary/Rates.h), one per followed process, so the numbers
// mean what `sonde summary` says they mean (docs/rates.md).
//
// A follower gives each thread's records in the order they were completed
// (a region after what it holds), and a RateCounter wants the order the
// program made them. A step's records all arrive before the step's own
// region (the fetch before it, what it holds), so each thread's regions
// wait until a step arrives, then go to the counter in program order
// (start time, then the outer before the inner). Memory: the regions of
// one step, or at most MaxWaiting per thread.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_LIVERATES_H
#define SONDE_TRACE_LIVE_LIVERATES_H

#include "live/Follower.h"
#include "summary/Rates.h"

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace sonde::trace::live {

/// The job's rates: the sum of its processes' (they run side by side).
struct LiveRateSample {
  uint64_t Steps = 0, Items = 0; ///< after the warm-up, all processes
  double Train = 0, Loading = 0, Compute = 0;
  /// The same rates of the steps closed since the previous tick, when
  /// there were any.
  bool HasInterval = false;
  double IntervalTrain = 0, IntervalLoading = 0, IntervalCompute = 0;
};

class LiveRates {
public:
  static constexpr size_t MaxWaiting = 1u << 16;
  static constexpr size_t RecentSamples = 64;

  void event(const FileFollower &F, const Event &E);
  void ended(const FileFollower &F);
  /// Called once per refresh: the rates over the run so far, and the train
  /// rate of the steps since the last tick goes to recent().
  LiveRateSample tick();
  /// Train rates (items/s) of the steps between ticks, the latest last.
  const std::deque<double> &recent() const { return Recent; }
  /// Whether any step (a region with an item count) was seen.
  bool any() const { return AnySteps; }

private:
  struct Process {
    std::unique_ptr<RateCounter> Counter;
    size_t Sites = 0; ///< the trace's site count the counter knows
    std::map<uint32_t, std::vector<Event>> Waiting;
    RateRow LastRun; ///< at the last tick
  };
  Process &of(const FileFollower &F);
  void feed(Process &P, std::vector<Event> &Regions);

  std::map<const FileFollower *, Process> Procs;
  std::deque<double> Recent;
  bool AnySteps = false;
};

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_LIVERATES_H
