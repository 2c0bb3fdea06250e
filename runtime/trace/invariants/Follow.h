//===- Follow.h - `sonde check --follow` ------------------------*- C++ -*-===//
//
// Checking traces while the runs that write them go on (Follow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_INVARIANTS_FOLLOW_H
#define SONDE_TRACE_INVARIANTS_FOLLOW_H

#include "Invariants.h"

#include <string>
#include <vector>

namespace sonde::trace::inv {

struct FollowOptions {
  double IntervalSeconds = 1; ///< how often the files' sizes are polled
  /// Stop when no file grew for this long and some trace has not ended.
  double IdleSeconds = 60;
  size_t LookAhead = 0; ///< openTraceWhole()'s
};

/// Checks the traces the inputs name, again each time they grow, until
/// every one has ended or none grew for IdleSeconds. `Out`: the last
/// check's report. False (said) when, at the end, a file is still not a
/// readable trace or there is no trace at all.
bool followCheck(const std::vector<std::string> &Inputs,
                 const std::vector<Invariant> &Invs, const FollowOptions &Opt,
                 CheckReport &Out);

} // namespace sonde::trace::inv

#endif // SONDE_TRACE_INVARIANTS_FOLLOW_H
