//===- ProcessFields.h - A process, as every output writes it - -*- C++ -*-===//
//
// The process a trace comes from appears in the JSONL export's start and
// end records, `sonde info --json`, `sonde summary --json` and the report's
// data, each with the fields it needs in its own order. Each field's key
// and value are written here once, and so is what an output says when no
// End block was read. Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_PROCESSFIELDS_H
#define SONDE_TRACE_PROCESSFIELDS_H

#include "Json.h"
#include "sonde/trace.h"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace sonde::trace {

/// Who reads what an output says about a process.
enum class Audience : uint8_t {
  Program, ///< JSON exports and --json: "unknown" when the end is unknown
  Person,  ///< summary, info and the report's page: "no end record"
};

/// How the process ended (ProcessInfo::How: exit, signal:SIGTERM...), or,
/// when no End block was read, what `A` is told.
const std::string &howEnded(const ProcessInfo &P, Audience A);

/// Where the process stood in its job, for a person: ` of 4 (local 1,
/// openmpi)`, after its rank; empty when no launcher gave a rank.
std::string worldShown(const ProcessInfo &P);

/// One member of a process object, by its key.
enum class ProcessField : uint8_t {
  File,     ///< "file": the trace's path
  Program,  ///< "program"
  Pid,      ///< "pid"
  PPid,     ///< "ppid"
  Rank,     ///< "rank"
  Host,     ///< "host"
  How,      ///< "how": howEnded(Audience::Program)
  HowShown, ///< "how": howEnded(Audience::Person)
  StartNs,  ///< "start_ns": the process start, ns since the Unix epoch
  DurNs,    ///< "dur_ns": from the process start to its end
  Events,   ///< "events": the records read
  Dropped,  ///< "dropped": records the ring had no room for
  Sites,    ///< "sites": the sites defined
  Threads,  ///< "threads": the threads announced
  Complete, ///< "complete": false when the file is torn
  /// "local_rank", "world_size": null when not given (and before format
  /// 1.3); "launcher": env, openmpi, pmi or slurm, null when none.
  LocalRank,
  WorldSize,
  Launcher,
};

/// Writes `Fields` of `T`'s process, in that order, as members of the
/// object `J` has open.
void processFields(JsonOut &J, const Trace &T,
                   std::initializer_list<ProcessField> Fields);

} // namespace sonde::trace

#endif // SONDE_TRACE_PROCESSFIELDS_H
