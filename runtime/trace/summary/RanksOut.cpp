//===- RanksOut.cpp - The per-rank table as text and as JSON --------------===//
//
// `sonde summary` prints the table after the processes; `--json` and
// `sonde report` carry it as `ranks`. Times are per step (the window per
// step) when a step was found, else over each rank's whole process; the
// last line names the rank the others waited for.
//
//===----------------------------------------------------------------------===//

#include "Json.h"
#include "Ranks.h"
#include "TextOut.h"

namespace sonde::trace::ranks {
namespace {

std::string human(int64_t Ns) {
  double V = static_cast<double>(Ns);
  if (Ns >= 1000000000)
    return fmt::format("{:.3f} s", V / 1e9);
  if (Ns >= 1000000)
    return fmt::format("{:.3f} ms", V / 1e6);
  if (Ns >= 1000)
    return fmt::format("{:.3f} us", V / 1e3);
  return fmt::format("{} ns", Ns);
}

/// `Ns` of a row's window, per step when it has steps.
int64_t perStep(const RankRow &R, int64_t Ns) {
  return R.Steps ? Ns / static_cast<int64_t>(R.Steps) : Ns;
}

/// The share of communication that overlapped computation, in percent.
double overlapPercent(const RankRow &R) {
  return R.CommNs ? 100.0 * static_cast<double>(R.OverlapNs) /
                        static_cast<double>(R.CommNs)
                  : 0.0;
}

} // namespace

void printRanks(TextOut &Out, const std::optional<RankTable> &Table) {
  if (!Table)
    return;
  const RankTable &T = *Table;
  bool WithWait = false;
  for (const RankRow &R : T.Rows)
    WithWait |= R.CallerSide;
  Out.print("\nranks: {} ({})\n", T.Rows.size(),
            T.Step.empty() ? std::string("no step region found: times over "
                                         "each whole process")
                           : "times per step of " + T.Step);
  Out.print("  {:>6} {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}\n", "rank",
            "steps", "step", "compute", "comm", "wait", "busy", "overlap");
  for (const RankRow &R : T.Rows)
    Out.print("  {:>6} {:>6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>7.1f}%\n",
              R.Rank, R.Steps, human(R.stepNs()),
              human(perStep(R, R.ComputeNs)), human(perStep(R, R.CommNs)),
              R.CallerSide ? human(perStep(R, R.WaitNs)) : std::string("-"),
              human(R.busyNs()), overlapPercent(R));
  int64_t SlowBusy = 0;
  for (const RankRow &R : T.Rows)
    if (R.Rank == T.Slowest)
      SlowBusy = R.busyNs();
  Out.print("  slowest rank: {} (busy {}{}, {:.2f}x the median rank); "
            "step time max/median {:.2f}\n",
            T.Slowest, human(SlowBusy), T.Step.empty() ? "" : " a step",
            T.Imbalance, T.StepImbalance);
  if (!WithWait)
    Out.raw("  (no caller-side comm probes: wait is not known, busy is the "
            "whole step; docs/distributed.md)\n");
}

void writeRanksJson(JsonOut &J, const std::optional<RankTable> &Table) {
  J.key("ranks");
  if (!Table) {
    J.raw("null");
    return;
  }
  const RankTable &T = *Table;
  J.open();
  J.key("step");
  if (T.Step.empty())
    J.raw("null");
  else
    J.str(T.Step);
  J.key("slowest_rank").num(T.Slowest);
  J.key("imbalance").num(T.Imbalance);
  J.key("step_imbalance").num(T.StepImbalance);
  J.key("rows").openArray();
  for (const RankRow &R : T.Rows) {
    J.item().open();
    J.key("rank").num(R.Rank);
    J.key("processes").num(R.Processes);
    J.key("steps").num(R.Steps);
    J.key("window_ns").num(R.WindowNs);
    J.key("step_ns").num(R.stepNs());
    J.key("compute_ns").num(R.ComputeNs);
    J.key("comm_ns").num(R.CommNs);
    J.key("wait_ns");
    if (R.CallerSide)
      J.num(R.WaitNs);
    else
      J.raw("null");
    J.key("busy_ns").num(R.busyNs());
    J.key("overlap_ns").num(R.OverlapNs);
    J.key("overlap").num(R.CommNs ? static_cast<double>(R.OverlapNs) /
                                        static_cast<double>(R.CommNs)
                                  : 0.0);
    J.close();
  }
  J.closeArray();
  J.close();
}

} // namespace sonde::trace::ranks
