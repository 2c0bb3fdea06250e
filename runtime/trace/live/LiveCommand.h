//===- LiveCommand.h - `sonde live` ----------------------------*- C++ -*-===//
//
// The command the `sonde` tool runs for `sonde live [DIR|FILE...]`
// (docs/live.md): follows trace files as their programs write them and
// shows the run as a dashboard, plain lines or JSON lines, and stops with
// a failure when a --fail-on condition holds.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_LIVECOMMAND_H
#define SONDE_TRACE_LIVE_LIVECOMMAND_H

#include <string>

namespace sonde::trace::live {

/// The exit status when a --fail-on condition held.
constexpr int ConditionHeld = 3;

/// `Argv[1]` is "live". `Usage` is printed after a usage error. Exit
/// status: 0 every process ended (or q, Ctrl-C), 1 a file could not be
/// followed, 2 a usage error, ConditionHeld.
int runLiveCommand(int Argc, char **Argv, const std::string &Usage);

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_LIVECOMMAND_H
