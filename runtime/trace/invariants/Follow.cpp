//===- Follow.cpp - `sonde check --follow`: checking files as they grow ---===//
//
// A run being traced writes its file block by block; `--follow` checks it
// while it does. Every --interval seconds the sizes of the inputs are
// polled (a directory's files listed again: ranks start one after the
// other); when they grew, every file is read again from its start and
// checked against the invariants by a fresh Checker. Each invariant is
// said on standard error the first time a check finds it broken; when
// every trace is complete (its End block read), or when nothing grew for
// --idle seconds (a run killed before its end), the last check's report
// is printed as `sonde check` prints it, with the same exit status.
//
// Reading everything again is simple and correct (the reader is the one
// every command uses, and a torn last block is read up to the tear); its
// cost grows with the square of the file. The follower of growing files
// (runtime/trace/live/, `sonde live`) is where this should move: it gives
// each record once, and the Checker already counts a violation as its
// record arrives.
//
//===----------------------------------------------------------------------===//

#include "Follow.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <sys/stat.h>
#include <thread>

namespace sonde::trace::inv {
namespace {

void say(const char *Level, const std::string &Msg) {
  std::fprintf(stderr, "sonde: %s: %s\n", Level, Msg.c_str());
}

/// The files the inputs name now, and their total size. A path that
/// does not exist yet (the run has not opened it) counts as empty.
uint64_t sizes(const std::vector<std::string> &Inputs,
               std::vector<std::string> &Files) {
  Files.clear();
  uint64_t Total = 0;
  for (const std::string &In : Inputs) {
    std::vector<std::string> Found;
    std::string Error;
    if (!expandInputs({In}, Found, Error))
      continue; // not there yet, or no trace in it yet
    for (const std::string &F : Found) {
      struct stat St;
      if (stat(F.c_str(), &St) == 0)
        Total += static_cast<uint64_t>(St.st_size);
      Files.push_back(F);
    }
  }
  return Total;
}

std::string secondsText(double S) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g s", S);
  return Buf;
}

} // namespace

bool followCheck(const std::vector<std::string> &Inputs,
                 const std::vector<Invariant> &Invs, const FollowOptions &Opt,
                 CheckReport &Out) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::string> Files;
  std::set<const Invariant *> Said;
  std::set<std::string> LateSaid; ///< files whose late records were said
  uint64_t Last = ~uint64_t(0);
  auto Grew = Clock::now();
  std::vector<std::string> Unread; // files the last check could not open
  for (;;) {
    uint64_t Size = sizes(Inputs, Files);
    if (Size != Last) {
      Last = Size;
      Grew = Clock::now();
      Checker C(Invs);
      bool AllEnded = !Files.empty();
      Unread.clear();
      for (const std::string &F : Files) {
        Trace T;
        std::string Error;
        if (!openTraceWhole(F, T, Error, Opt.LookAhead)) {
          AllEnded = false; // its header may not be written yet
          Unread.push_back(Error);
          continue;
        }
        for (const Event &E : events(T))
          C.observe(T, E);
        C.endTrace();
        AllEnded &= T.Process.Ended;
        if (std::string Late = lateWarning(T, F);
            !Late.empty() && LateSaid.insert(F).second)
          say("warning", Late);
      }
      Out = C.finish();
      for (const Violation &V : Out.Violations)
        if (Said.insert(V.Inv).second)
          say("violation", V.Inv->Text + " (first: " + V.First.TracePath +
                               ", rank " + std::to_string(V.First.Rank) + ", " +
                               V.First.File + ":" +
                               std::to_string(V.First.Line) + ")");
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf),
                    "following: %" PRIu64 " records in %zu trace%s, %zu "
                    "invariant%s violated",
                    Out.Records, Out.Traces, Out.Traces == 1 ? "" : "s",
                    Out.Violations.size(),
                    Out.Violations.size() == 1 ? "" : "s");
      say("note", Buf);
      if (AllEnded)
        return true;
    } else if (Clock::now() - Grew >
               std::chrono::duration<double>(Opt.IdleSeconds)) {
      // A file that never became a readable trace, or no trace at all, is
      // an error: a CI check must not pass on what it could not read.
      for (const std::string &Why : Unread)
        say("error", Why);
      if (Out.Traces == 0)
        say("error", "no trace to check among the inputs after " +
                         secondsText(Opt.IdleSeconds));
      if (!Unread.empty() || Out.Traces == 0)
        return false;
      say("warning",
          "no trace grew for " + secondsText(Opt.IdleSeconds) +
              " and not every trace has ended: checked as far as they go");
      return true;
    }
    std::this_thread::sleep_for(
        std::chrono::duration<double>(Opt.IntervalSeconds));
  }
}

} // namespace sonde::trace::inv
