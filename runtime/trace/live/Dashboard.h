//===- Dashboard.h - The screens and lines of `sonde live` -----*- C++ -*-===//
//
// What `sonde live` prints from a LiveState: the dashboard (a screen of at
// most 24 lines of at most the terminal's width, 80 columns being enough
// for all of it) and the one-line summaries of `--plain`. Text only: the
// command (LiveCommand.cpp) owns the terminal.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_DASHBOARD_H
#define SONDE_TRACE_LIVE_DASHBOARD_H

#include "live/LiveState.h"

#include <string>
#include <vector>

namespace sonde::trace::live {

/// What the command knows besides the records.
struct LiveStatus {
  int64_t NowNs = 0;    ///< the wall clock (ns since the Unix epoch)
  size_t Files = 0;     ///< files followed
  size_t Running = 0;   ///< of them, started and not ended
  size_t Ended = 0;     ///< of them, ended
  uint64_t Dropped = 0; ///< records the writers dropped
  std::string Waiting;  ///< what is waited for, before any file started
  std::string Note;     ///< the latest problem said, if any
  bool Done = false;    ///< every process ended
};

/// `0:01:23` style elapsed time of the run.
std::string elapsedText(const LiveState &S, const LiveStatus &St);

/// A sparkline of `Values` in at most `Width` cells (the latest values),
/// scaled between their minimum and maximum; NaN and infinities shown as
/// '!'.
std::string sparkline(const std::deque<double> &Values, size_t Width);

/// The dashboard, one string per line, cut to `Width` columns and
/// `Height` lines.
std::vector<std::string> dashboard(const LiveState &S, const LiveStatus &St,
                                   size_t Width, size_t Height);

/// `--plain`: one line (no newline).
std::string plainLine(const LiveState &S, const LiveStatus &St);

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_DASHBOARD_H
