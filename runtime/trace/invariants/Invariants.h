//===- Invariants.h - Invariants learned from good runs ---------*- C++ -*-===//
//
// `sonde infer` learns invariants from traces of runs known to be good and
// `sonde check` reports where another run breaks them (docs/invariants.md).
// Both consume a trace's events in order, one observe() per event: they
// never index into Trace::Events, so they run unchanged on a streaming
// reader, and their memory grows with the sites, streams and open scopes,
// never with the records.
//
// An invariant is one relation (precedes, contains, changes, ...) over
// sites and value streams named by text keys that stay the same from one
// build of a program to another run of it; its support is how many times
// it held in the good runs.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_INVARIANTS_H
#define SONDE_TRACE_INVARIANTS_H

#include "sonde/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sonde::trace::inv {

/// One learned fact. Which fields a relation uses is said in
/// docs/invariants.md; the others stay empty.
struct Invariant {
  std::string Family;   ///< order, containment, state, value, argument
  std::string Relation; ///< precedes, contains, changes, frozen, ...
  std::string Scope;    ///< the site whose iterations it speaks of
  std::string Subject;  ///< a site or a value stream
  std::string Other;    ///< a second site (precedes: the one first)
  std::string Value;    ///< a value's text (same, fixed)
  double Lo = 0, Hi = 0;
  std::string Direction; ///< monotone: increasing or decreasing
  uint64_t Support = 0;  ///< how many times it held in the good runs
  std::string Text;      ///< the invariant in words

  /// Where it lives in the file, for messages (0: built in memory).
  unsigned Line = 0;
};

/// What `sonde infer` keeps.
struct InferOptions {
  /// An invariant that held fewer times than this is not kept: too little
  /// evidence to tell a rule from a coincidence.
  uint64_t MinSupport = 10;
  /// value.range widens the range seen on each side by this fraction of
  /// its width (or of a quarter of the values' magnitude, when more), so a
  /// good run that goes slightly further is no violation.
  double RangeMargin = 0.5;
};

/// The record where a violation was first seen.
struct Where {
  std::string TracePath;
  int64_t Rank = 0;
  uint32_t Thread = 0;
  int64_t Ts = 0;    ///< ns since the Unix epoch
  int64_t Since = 0; ///< ns since the process started
  std::string Site;  ///< its key (docs/invariants.md, "Names")
  std::string File;
  uint32_t Line = 0;
  std::string Detail; ///< the values, in words
};

struct Violation {
  const Invariant *Inv = nullptr;
  uint64_t Count = 0;
  Where First;
};

struct CheckReport {
  std::vector<Violation> Violations; ///< in the order first seen
  size_t Invariants = 0;
  size_t Unexercised = 0; ///< invariants no record of the traces touched
  uint64_t Records = 0;
  size_t Traces = 0;
  /// What could not be checked, and why (a warning each).
  std::vector<std::string> Notes;
  /// The invariants some record touched or broke (for mergeReports).
  std::vector<const Invariant *> Exercised;
};

/// One report from the reports of checks of consecutive parts of the
/// traces (each part's files checked by its own Checker, in order): counts
/// and records summed, each invariant's first violation the earliest
/// part's. Parts must not split what one relation compares across traces
/// (a job's ranks: one directory, one part).
CheckReport mergeReports(std::vector<CheckReport> Parts, size_t Invariants);

/// The directory of a trace's path (with its slash; "" for none): a
/// job's traces, which ranks.equal compares, are the files of one.
std::string jobDirectory(const std::string &Path);

/// How `sonde check` splits `Files` (in order; `Sizes`: their bytes) into
/// at most `Most` parts, each checked by a Checker of its own, the reports
/// merged in order (CheckParts.cpp): contiguous runs of about equal bytes,
/// or, when an invariant compares traces (ranks), one part per directory.
std::vector<std::vector<std::string>>
checkParts(const std::vector<std::string> &Files,
           const std::vector<uint64_t> &Sizes,
           const std::vector<Invariant> &Invs, size_t Most);

/// Learns invariants from good traces. For each trace: observe() each of
/// its events in the reader's order (time order per thread), then
/// endTrace(); finish() once at the end.
class Inferrer {
public:
  explicit Inferrer(InferOptions Options = {});
  ~Inferrer();
  void observe(const Trace &T, const Event &E);
  void endTrace();
  /// The invariants kept, sorted by family, relation and subject.
  std::vector<Invariant> finish();
  size_t traces() const;
  /// What could not be learned from these traces, and why (a warning
  /// each).
  const std::vector<std::string> &notes() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Checks traces against invariants (which must outlive it), as records
/// arrive: a violation is counted as soon as the record that shows it is
/// observed (a scope's, when its iteration ends).
class Checker {
public:
  explicit Checker(const std::vector<Invariant> &Invariants);
  ~Checker();
  void observe(const Trace &T, const Event &E);
  void endTrace();
  CheckReport finish();

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Opens a trace as openTrace does, for infer and check: a file of up to
/// 64 MB is read whole, in one read, its structured values are kept
/// encoded, and its records are checked as its events are read
/// (OpenWhole.cpp). Fails as openTrace does.
/// `LookAhead`: the events its ordering may hold (0: the stream's
/// default, TraceStream::setLookAhead).
bool openTraceWhole(const std::string &Path, Trace &Out, std::string &Error,
                    size_t LookAhead = 0);
/// The problems of a trace openTraceWhole() opened, once its events were
/// read to the end (before, only what its outline showed).
const std::string &problemsRead(const Trace &T);
/// What infer and check say of a trace once its events were read: its
/// problems, the blocks that could not be read again, and the events given
/// out of order because the look-ahead was full, whose scopes the
/// invariants then do not see as the program made them. Each a warning
/// (without "warning: "), naming the file; none when all is well.
std::vector<std::string> readWarnings(const Trace &T, const std::string &Path);
/// The last of those alone, or empty: `check --follow` reads growing files,
/// whose torn ends are no news, but says this once per file.
std::string lateWarning(const Trace &T, const std::string &Path);

/// The invariants file (YAML, docs/invariants.md): written by infer.
void writeInvariants(const std::vector<Invariant> &Invariants,
                     const std::vector<std::string> &Traces,
                     const InferOptions &Options, std::FILE *Out);
/// Reads what writeInvariants writes. False with `Error` located
/// (`FILE:LINE: ...`) on anything else.
bool readInvariants(const std::string &Path, std::vector<Invariant> &Out,
                    std::string &Error);

/// `sonde infer` and `sonde check`: `Argv[1]` is the command. Exit status
/// as docs/invariants.md says: 0 clean, 1 a violation (check) or a failed
/// output, 2 a usage error or a file that cannot be read.
int runInvariantCommand(int Argc, char **Argv);
/// `sonde infer --help` / `sonde check --help` (`Command`: "infer" or
/// "check"): its usage, with its options' defaults and exit status, on
/// standard output.
void printInvariantUsage(const std::string &Command);

} // namespace sonde::trace::inv

#endif // SONDE_TRACE_INVARIANTS_H
