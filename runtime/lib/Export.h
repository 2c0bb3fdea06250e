//===- Export.h - What the `sonde` tool does with traces --------*- C++ -*-===//

#ifndef SONDE_LIB_EXPORT_H
#define SONDE_LIB_EXPORT_H

#include "sonde/trace.h"

#include <cstdio>
#include <vector>

namespace sonde::trace {

/// One JSON object per line (docs/cli.md), each process in time order.
void exportJsonl(const std::vector<Trace> &Traces, std::FILE *Out);
/// Chrome trace JSON (`{"traceEvents":[...]}`), which Perfetto's UI opens:
/// regions as X events, instants as i events, numeric watches as counters,
/// process and thread names as M events. Times in microseconds.
void exportChrome(const std::vector<Trace> &Traces, std::FILE *Out);
/// Per file: the process, how it ended, drops, sites and threads (needs no
/// events, see readTrace's `Events`).
void printInfo(const std::vector<Trace> &Traces, bool Json, std::FILE *Out);
/// Every record in readable text, with the file's reading status.
void dumpTrace(const Trace &T, std::FILE *Out);
/// Per category and name: count, total, mean, p50, p99; per watch: count,
/// first, last, min, max.
void printSummary(const std::vector<Trace> &Traces, std::FILE *Out);
void printSummaryJson(const std::vector<Trace> &Traces, std::FILE *Out);

/// The name an event is shown under: the site's name, with `.start` or
/// `.stop` for the two instants of a `mode: instant` region.
std::string eventName(const Trace &T, const Event &E);

} // namespace sonde::trace

#endif // SONDE_LIB_EXPORT_H
