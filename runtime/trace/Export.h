//===- Export.h - What the `sonde` tool does with traces --------*- C++ -*-===//

#ifndef SONDE_TRACE_EXPORT_H
#define SONDE_TRACE_EXPORT_H

#include "sonde/trace.h"
#include "summary/Rates.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace sonde::trace {

/// The time the JSONL and Chrome exports count from: the earliest process
/// start or record of `Traces` (ns since the Unix epoch). Every time a
/// trace holds is in [0, MaxTimeNs], so a time less it never overflows.
int64_t timeOrigin(const std::vector<Trace> &Traces);

/// One JSON object per line (docs/exports.md), each process in time order;
/// `ts` in ns since timeOrigin(), which the process start records give.
void exportJsonl(const std::vector<Trace> &Traces, std::FILE *Out);
/// One line of that export: a process's start or end record, and one
/// event's (`sonde live --jsonl` prints the same lines as records arrive).
class JsonOut;
void jsonlProcess(JsonOut &J, const Trace &T, bool End, int64_t Origin);
/// With `Cache`, what every event of a site or thread writes the same is
/// formatted once (one cache per trace: clear it between traces).
struct JsonlCache;
void jsonlEvent(JsonOut &J, const Trace &T, const Event &E, int64_t Origin,
                JsonlCache *Cache = nullptr);
/// Chrome trace JSON (`{"traceEvents":[...]}`), which Perfetto's UI opens:
/// regions as X events, instants as i events, numeric watches as counters,
/// process and thread names as M events. Times in microseconds since
/// timeOrigin(), which `otherData.origin_unix_ns` gives.
void exportChrome(const std::vector<Trace> &Traces, std::FILE *Out);
/// DFTracer's trace format (its release writer): "[", one JSON object per
/// line, "]". Regions are complete events (ph X, integer microseconds) with
/// args {hhash, level, epoch, step, ...}; instants and watches are X events
/// of duration 0 (a watch's value in args.value); an API call's pre and
/// post records are one event spanning the call; ph M lines name the
/// process, threads, host hash (HH) and rank (PR).
void exportDftracer(const std::vector<Trace> &Traces, std::FILE *Out);
/// TrainCheck's JSON lines: API records ("function_call (pre)" and
/// "(post)", with func_call_id, process_id, thread_id, meta_vars, function,
/// args, kwargs, return_values, time) and variable records (var_name,
/// var_type, mode, attributes, meta_vars, time), each process in time order.
void exportTraincheck(const std::vector<Trace> &Traces, std::FILE *Out);
/// The watches as CSV (RFC 4180): one row per watch record (not API call
/// records), a column per context arg and per member of structured values.
void exportCsv(const std::vector<Trace> &Traces, std::FILE *Out);

/// Puts several processes on one timeline (docs/exports.md, "merge"):
/// files from one boot of one host are placed on their shared monotonic
/// clock; a pid used by two files is renumbered. Sorts by rank. Returns
/// notes for the user (what was corrected, what could not be).
std::vector<std::string> alignClocks(std::vector<Trace> &Traces);

struct ReportOptions {
  std::string Title;
  std::string Step; ///< the region to show as one step; empty: chosen
  /// The first steps of each process the rates keep apart.
  unsigned Warmup = DefaultWarmupSteps;
};
/// `sonde report`: one self-contained HTML page. False with `Error` set
/// when the options name something the traces lack.
bool writeReport(const std::vector<Trace> &Traces, const ReportOptions &O,
                 std::FILE *Out, std::string &Error);

/// Opens an output file; a name ending in `.gz` is written gzip-compressed.
std::FILE *openOutput(const std::string &Path, std::string &Error);

/// FNV-1a, the hash DFTracer exports use for host names.
uint32_t stringHash(std::string_view S);

/// Per file: the process, how it ended, drops, sites and threads (needs no
/// events, see readTrace's `Events`).
void printInfo(const std::vector<Trace> &Traces, bool Json, std::FILE *Out);
/// Every record in readable text, with the file's reading status.
void dumpTrace(const Trace &T, std::FILE *Out);
/// Per category and name: count, total, mean, p50, p99; per watch: count,
/// first, last, min, max.
/// `WarmupSteps`: the first steps of each process the rates keep apart
/// (docs/rates.md).
void printSummary(const std::vector<Trace> &Traces, std::FILE *Out,
                  unsigned WarmupSteps = DefaultWarmupSteps);
void printSummaryJson(const std::vector<Trace> &Traces, std::FILE *Out,
                      unsigned WarmupSteps = DefaultWarmupSteps);

/// Percentile `P` (0 to 1) of sorted durations, by nearest rank; 0 when
/// there are none. The p50 and p99 of `sonde summary` and `sonde report`.
int64_t percentile(const std::vector<int64_t> &Durs, double P);

/// The number a watched value stands for, when it is one: `V` itself when
/// a number, or the `value` of a one-element tensor's summary (`summary:
/// value`, a 0-dim loss: {"shape":[],"numel":1,"value":8.71}); else null.
const Value *scalarOf(const Value &V);

/// The name an event is shown under: the site's name, with `.start` or
/// `.stop` for the two instants of a `mode: instant` region.
std::string eventName(const Trace &T, const Event &E);

} // namespace sonde::trace

#endif // SONDE_TRACE_EXPORT_H
