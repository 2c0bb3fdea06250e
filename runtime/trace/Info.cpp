//===- Info.cpp - `sonde info` and `sonde dump` ---------------------------===//
//
// What a trace file holds, for a person or a script: `info` the process,
// how it ended, its drops, sites and threads (no events needed); `dump`
// every record in readable text, with the file's reading status.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "Json.h"
#include "ProcessFields.h"
#include "exports/ExportCommon.h"

namespace sonde::trace {

void printInfo(const std::vector<Trace> &Traces, bool Json, std::FILE *Out) {
  JsonOut J(Out);
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    size_t Sites = T.Sites.empty() ? 0 : T.Sites.size() - 1;
    if (!Json) {
      J.flush();
      std::fprintf(Out,
                   "%s: %s pid %llu rank %lld%s host %s, %s, %llu dropped, "
                   "%zu sites, %zu threads%s\n",
                   T.Path.c_str(), P.Program.c_str(), (unsigned long long)P.Pid,
                   (long long)P.Rank, worldShown(P).c_str(), P.Host.c_str(),
                   howEnded(P, Audience::Person).c_str(),
                   (unsigned long long)P.Dropped, Sites, T.Threads.size(),
                   T.Complete ? "" : ", torn");
      continue;
    }
    J.open();
    processFields(J, T,
                  {ProcessField::File, ProcessField::Program, ProcessField::Pid,
                   ProcessField::Rank, ProcessField::LocalRank,
                   ProcessField::WorldSize, ProcessField::Launcher,
                   ProcessField::Host, ProcessField::How, ProcessField::Dropped,
                   ProcessField::Sites, ProcessField::Threads,
                   ProcessField::Complete});
    J.close().raw("\n");
  }
}

void dumpTrace(const Trace &T, std::FILE *Out) {
  const ProcessInfo &P = T.Process;
  std::fprintf(Out, "file: %s (format %u.%u)\n", T.Path.c_str(), T.VersionMajor,
               T.VersionMinor);
  std::fprintf(Out, "process: %s pid %llu ppid %llu rank %lld%s host %s\n",
               P.Program.c_str(), (unsigned long long)P.Pid,
               (unsigned long long)P.PPid, (long long)P.Rank,
               worldShown(P).c_str(), P.Host.c_str());
  std::fprintf(Out, "end: %s, %llu dropped\n",
               P.Ended ? P.How.c_str() : "(none)",
               (unsigned long long)P.Dropped);
  std::fprintf(Out, "clock: %.6f ns per tick\n", T.NsPerTick);
  if (!T.Problem.empty())
    std::fprintf(Out, "reading: stopped at byte %llu: %s\n",
                 (unsigned long long)T.StoppedAt, T.Problem.c_str());
  std::fprintf(Out, "sites:\n");
  for (const SiteInfo &S : T.Sites) {
    if (!S.Id)
      continue;
    std::fprintf(Out, "  #%u %s/%s %s:%u %s", S.Id, S.Category.c_str(),
                 S.Name.c_str(), S.File.c_str(), S.Line, S.Function.c_str());
    if (S.StableId)
      std::fprintf(Out, " id=%llx", (unsigned long long)S.StableId);
    if (!S.Type.empty())
      std::fprintf(Out, " type=%s", S.Type.c_str());
    std::fprintf(Out, "\n");
  }
  std::fprintf(Out, "threads:\n");
  for (const ThreadInfo &TI : T.Threads)
    std::fprintf(Out, "  %u tid %llu %s\n", TI.Index,
                 (unsigned long long)TI.Tid, TI.Name.c_str());
  std::fprintf(Out, "events: %llu\n", (unsigned long long)eventCount(T));
  int64_t T0 = 0;
  bool First = true;
  JsonOut J(Out);
  for (const Event &E : events(T)) {
    if (First) // times from the first event's
      T0 = E.Ts;
    First = false;
    J.flush();
    std::fprintf(Out, "  %12.3f us  t%u  %-7s %*s#%u %s", (E.Ts - T0) / 1e3,
                 E.Thread, kindName(E.Kind), static_cast<int>(2 * E.Level), "",
                 E.Site, eventName(T, E).c_str());
    if (E.Kind == EventKind::Region)
      std::fprintf(Out, " dur %.3f us", E.Dur / 1e3);
    if (E.Iter >= 0)
      std::fprintf(Out, " iter %lld", (long long)E.Iter);
    if (E.Unfinished)
      std::fprintf(Out, " UNFINISHED");
    if (E.Kind == EventKind::Watch) {
      std::fprintf(Out, " = ");
      J.value(E.V);
      J.flush();
    }
    if (!E.A->empty()) {
      std::fprintf(Out, " args ");
      J.args(*E.A);
      J.flush();
    }
    std::fprintf(Out, "\n");
  }
}

} // namespace sonde::trace
