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

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sonde::trace::report {

/// Self time: a region's duration minus its direct children's, per event
/// of `T` (0 for events that are not regions).
std::vector<int64_t> selfTimes(const Trace &T);

/// The arg `Name` in force at `E`, or null.
const Value *argOf(const Event &E, std::string_view Name);

/// The number a watch plots: a scalar (a number, or a one-element tensor's
/// value), or a tensor summary's mean. Model state (one record per
/// parameter) and API calls are not plotted: their records are not one
/// series.
bool plotValue(const SiteInfo &S, const Value &V, double &Out);

/// `categories`, `names` and `names_total`: self and total time by top
/// category and by name (self time: nested regions are not counted twice).
/// `Selfs` holds selfTimes() of each trace.
void writeTimeTables(JsonOut &J, const std::vector<Trace> &Traces,
                     const std::vector<std::vector<int64_t>> &Selfs);

/// The index in `T.Events` of the region that stands for "one step": given
/// by name (`Wanted`), else chosen; -1 with `Error` set when `Wanted` names
/// no region, -1 when there is none.
int64_t chooseStep(const Trace &T, const std::string &Wanted,
                   std::string &Error);
/// `step`: the step's region and the spans inside it, or null.
void writeStep(JsonOut &J, const Trace &T, int64_t StepIndex);

/// `watches`: each numeric watch, in order, per process.
void writeWatches(JsonOut &J, const std::vector<Trace> &Traces);

/// `epochs`: per epoch of the first process, its wall time, steps (records
/// of the step's site; chooseStep's `StepIndex`, -1 for none), self time by
/// category and the last value of each plotted watch. `Self0` holds
/// selfTimes() of Traces[0].
void writeEpochs(JsonOut &J, const std::vector<Trace> &Traces,
                 const std::vector<int64_t> &Self0, int64_t StepIndex);

} // namespace sonde::trace::report

#endif // SONDE_TRACE_REPORT_REPORTDATA_H
