//===- Rates.h - Training rates: items per second -------------*- C++ -*-===//
//
// voir's three rates, from the regions that carry an item count (the
// spec's `items:`, recorded under sonde::ItemsArg). Such a region is a
// *step*; per step:
//
//   train time    the step's own duration, plus the data-loader time
//                 before it and outside it since the last step (the fetch
//                 of a range-for loop, `<name>.iter`, precedes its
//                 `<name>.block`); any other region between steps (an
//                 evaluation, a checkpoint, the next epoch) parts the
//                 loading before it from the next step;
//   loading time  the `dataloader.*` time of that fetch and inside the step;
//   compute time  the `compute.*` time inside the step.
//
// Nested regions of one family count once (the outermost), and the step
// region itself counts in neither family whatever its category. A rate is
// items over that time, in items per second. The first `Warmup` steps of
// each process are kept apart (warm-up); the run and each epoch count the
// steps after them. Processes run side by side, so the job's rate is the
// sum of its processes' rates. docs/rates.md says all of it for users.
//
// RateCounter is fed event by event, in the order a trace gives them
// (events(T)), so `sonde summary`, `sonde report` and a live view share it.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_SUMMARY_RATES_H
#define SONDE_TRACE_SUMMARY_RATES_H

#include "sonde/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sonde::trace {

/// The warm-up steps `sonde summary` and `sonde report` keep apart unless
/// told (`--warmup N`).
constexpr unsigned DefaultWarmupSteps = 5;

/// Steps, items and times of a set of steps, and the rates they give.
struct RateRow {
  std::string Label; ///< the epoch (its `epoch` arg, or `#N`), or empty
  uint64_t Steps = 0, Items = 0;
  int64_t TrainNs = 0, LoadNs = 0, ComputeNs = 0;
  /// Items per second; 0 when its time is 0 (no such time was recorded).
  double Train = 0, Loading = 0, Compute = 0;
};

struct RateTable {
  unsigned WarmupSteps = 0;
  RateRow Warmup; ///< the first WarmupSteps steps of each process
  RateRow Run;    ///< every step after the warm-up
  /// Steps after the warm-up per epoch, in the order epochs began; empty
  /// when no step told its epoch.
  std::vector<RateRow> Epochs;
  /// Regions with an item count left open when their process ended: not
  /// counted.
  uint64_t Unfinished = 0;
  /// Item counts that were not a number (a hand-written arg): not counted.
  uint64_t NotCounts = 0;
  /// Warm-up and run steps together.
  uint64_t steps() const { return Warmup.Steps + Run.Steps; }
};

/// Whether `S`'s regions carry an item count (`items:`): they are steps.
bool hasItems(const SiteInfo &S);

class RateCounter {
public:
  explicit RateCounter(unsigned WarmupSteps = DefaultWarmupSteps);

  /// The events that follow are `T`'s (one process). T must outlive the
  /// events fed for it.
  void beginTrace(const Trace &T);
  /// The current trace has sites it did not have at beginTrace (a file
  /// followed while it is written): they are taken into account.
  void sitesChanged();
  /// One event of the current trace, in the trace's order.
  void add(const Event &E);
  /// Closes the steps still open (the end of every trace fed).
  void finish();
  /// The rates of the steps closed so far.
  RateTable table() const;

private:
  /// Times and items, summed (the rates come from them).
  struct Sums {
    uint64_t Steps = 0, Items = 0;
    int64_t TrainNs = 0, LoadNs = 0, ComputeNs = 0;
    void add(const Sums &O);
  };
  struct Step {
    int64_t End = 0;
    uint64_t Items = 0;
    int64_t PreLoadNs = 0, OwnNs = 0, LoadNs = 0, ComputeNs = 0;
    bool Warmup = false;
    size_t Epoch = 0; ///< index in EpochLabels, or NoEpoch
  };
  struct ThreadState {
    bool InStep = false;
    Step Open;
    /// Ends of the outermost loading and compute regions counted.
    int64_t LoadEnd = 0, ComputeEnd = 0;
    /// Data-loader time since the last step, to go to the next one.
    int64_t PendingLoadNs = 0;
    /// The `pipeline.epoch` region in force: its end and its ordinal.
    int64_t EpochEnd = 0;
    uint64_t EpochOrdinal = 0;
  };
  struct Process {
    uint64_t StepsSeen = 0;
    Sums Warmup, Run;
    std::map<size_t, Sums> Epochs;
    std::map<uint32_t, ThreadState> Threads;
  };

  void close(Process &P, ThreadState &TS);
  size_t epochOf(const Event &E, const ThreadState &TS);

  /// Per site of the current trace: its Family (Rates.cpp) and ItemsBit.
  static constexpr uint8_t ItemsBit = 0x80;
  std::vector<uint8_t> Classes;

  unsigned WarmupSteps;
  std::vector<Process> Processes;
  const Trace *Current = nullptr;
  std::vector<std::string> EpochLabels;
  std::map<std::string, size_t> EpochIndex;
  uint64_t Unfinished = 0, NotCounts = 0;
};

} // namespace sonde::trace

#endif // SONDE_TRACE_SUMMARY_RATES_H
