//===- SummaryStats.h - The tables of `sonde summary` --------- -*- C++ -*-===//
//
// What `sonde summary` counts, once for its text and its JSON: per region
// (category and name) its durations, per watch its first, last, min and
// max, per API its calls, errors and durations, per state site its records
// per parameter, instants by name, and the totals. Private to the trace
// library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_SUMMARY_SUMMARYSTATS_H
#define SONDE_TRACE_SUMMARY_SUMMARYSTATS_H

#include "DurationSketch.h"
#include "Rates.h"
#include "sonde/trace.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonde::trace {
class JsonOut;
}

namespace sonde::trace::summary {

struct RegionStats {
  std::string Cat, Category, Name;
  DurationSketch Durs;
  int64_t Total = 0;
  uint64_t Unfinished = 0;
};

struct WatchStats {
  std::string Name, Func;
  uint64_t Count = 0;
  std::optional<Value> First, Last;
  double Min = INFINITY, Max = -INFINITY;
  bool Numeric = false;
};

/// The calls of one API (`apis:`) from one function: the pre record opens a
/// call, the post or error record with the same call id closes it.
struct ApiStats {
  std::string Function, Caller;
  uint64_t Calls = 0, Errors = 0, Unfinished = 0;
  DurationSketch Durs;
  int64_t Total = 0;
};

/// The records of one `state:` site: one per parameter per snapshot.
struct StateStats {
  std::string Name, Func;
  uint64_t Records = 0;
  std::map<std::string, uint64_t> PerParam;
  std::optional<Value> Last;
};

/// The alarms of one watch site (`check: finite`): how many, and the first.
struct AlarmStats {
  std::string Name, Func, File;
  uint32_t Line = 0;
  uint64_t Count = 0;
  Value First;    ///< the first non-finite value
  Args FirstArgs; ///< the context in force then (epoch, step)
};

struct Totals {
  std::vector<RegionStats> Regions;
  std::vector<WatchStats> Watches;
  std::vector<ApiStats> Apis;
  std::vector<StateStats> States;
  std::vector<AlarmStats> Alarms; ///< in the order first raised
  /// Self time per top category, largest first (SelfTime.h).
  std::vector<std::pair<std::string, int64_t>> ByCategory;
  /// The training rates (Rates.h).
  RateTable Rates;
  std::map<std::string, uint64_t> Instants;
  uint64_t Events = 0, Threads = 0, Dropped = 0;
};

/// The tables of `Traces`: regions sorted by total time, APIs by total
/// time, watches and states in the order first recorded.
/// `WarmupSteps`: the first steps of each process the rates keep apart.
Totals collect(const std::vector<Trace> &Traces,
               unsigned WarmupSteps = DefaultWarmupSteps);

/// `"rates": {...}`, the rates as `sonde summary --json` and `sonde report`
/// give them (docs/exports.md).
void writeRates(JsonOut &J, const RateTable &R);

/// The watch a person reads as the loss: the first named `loss`, or null.
const WatchStats *lossWatch(const Totals &T);

/// The string member `Key` of an object value, or null.
const std::string *strField(const Value &V, const char *Key);

} // namespace sonde::trace::summary

#endif // SONDE_TRACE_SUMMARY_SUMMARYSTATS_H
