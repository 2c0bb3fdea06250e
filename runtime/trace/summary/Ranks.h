//===- Ranks.h - Where each rank's steps go, for summary and report -*- C++
//-*-===//
//
// A data-parallel job writes one trace per rank. What its user needs is the
// ranks side by side: per rank its steps, the time in computation and in
// communication, the wait inside collectives, how much of the communication
// overlapped the computation, and which rank the others waited for. Ranks of
// a synchronous job end each step together, so their wall step times are
// all the slowest's; the rank that holds the others back is the one with the
// most time per step outside its waits ("busy"), and that is the one named.
// rankTable() computes it in two passes over each trace's events (which
// step, then the times), in memory bounded by its ranks and sites, for
// `sonde summary` (text and --json) and `sonde report`. Private to the trace
// library; docs/distributed.md explains each column.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_SUMMARY_RANKS_H
#define SONDE_TRACE_SUMMARY_RANKS_H

#include "sonde/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sonde::trace {

class JsonOut;
class TextOut;

namespace ranks {

/// One rank's times, inside its steps' window: from its first step's start
/// to its last step's end (the whole process when no step was found).
/// Several files of one rank (forked workers) add up.
struct RankRow {
  int64_t Rank = 0;
  uint64_t Processes = 0;
  uint64_t Steps = 0;      ///< records of the step region in the window
  int64_t WindowNs = 0;    ///< the window's length
  int64_t ComputeNs = 0;   ///< covered by `compute.*` regions (any thread)
  int64_t CommNs = 0;      ///< covered by `comm.*` regions (any thread)
  int64_t WaitNs = 0;      ///< covered by the caller's side of collectives
  int64_t OverlapNs = 0;   ///< covered by both computation and communication
  bool CallerSide = false; ///< caller-side comm regions were recorded

  /// Window per step (the window when there are no steps).
  int64_t stepNs() const;
  /// The window less the wait, per step: the time this rank kept busy.
  int64_t busyNs() const;
};

struct RankTable {
  /// The region that stands for a step, `category/name`; empty: none.
  std::string Step;
  std::vector<RankRow> Rows;  ///< by rank
  int64_t Slowest = 0;        ///< the rank with the largest busyNs()
  double Imbalance = 1.0;     ///< max / median of busyNs()
  double StepImbalance = 1.0; ///< max / median of stepNs()
};

/// The per-rank table of `Traces`, when they hold at least two ranks.
std::optional<RankTable> rankTable(const std::vector<Trace> &Traces);

/// The table as `sonde summary` prints it (nothing for no table).
void printRanks(TextOut &Out, const std::optional<RankTable> &Table);
/// `"ranks":` and the table as an object, or null.
void writeRanksJson(JsonOut &J, const std::optional<RankTable> &Table);

} // namespace ranks
} // namespace sonde::trace

#endif // SONDE_TRACE_SUMMARY_RANKS_H
