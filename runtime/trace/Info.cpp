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
#include "TextOut.h"
#include "exports/ExportCommon.h"

namespace sonde::trace {
namespace {

/// A string as printf's "%s" of its c_str() shows it: up to a NUL byte.
std::string_view cstr(const std::string &S) { return S.c_str(); }

} // namespace

void printInfo(const std::vector<Trace> &Traces, bool Json, std::FILE *Out) {
  TextOut Text(Out);
  JsonOut J(Text);
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    size_t Sites = T.Sites.empty() ? 0 : T.Sites.size() - 1;
    if (!Json) {
      Text.print("{}: {} pid {} rank {}{} host {}, {}, {} dropped, {} sites, "
                 "{} threads{}\n",
                 cstr(T.Path), cstr(P.Program), P.Pid, P.Rank,
                 cstr(worldShown(P)), cstr(P.Host),
                 cstr(howEnded(P, Audience::Person)), P.Dropped, Sites,
                 T.Threads.size(), T.Complete ? "" : ", torn");
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
  TextOut Text(Out);
  Text.print("file: {} (format {}.{})\n", cstr(T.Path), T.VersionMajor,
             T.VersionMinor);
  Text.print("process: {} pid {} ppid {} rank {}{} host {}\n", cstr(P.Program),
             P.Pid, P.PPid, P.Rank, cstr(worldShown(P)), cstr(P.Host));
  Text.print("end: {}, {} dropped\n", P.Ended ? cstr(P.How) : "(none)",
             P.Dropped);
  Text.print("clock: {:.6f} ns per tick\n", T.NsPerTick);
  if (!T.Problem.empty())
    Text.print("reading: stopped at byte {}: {}\n", T.StoppedAt,
               cstr(T.Problem));
  Text.raw("sites:\n");
  for (const SiteInfo &S : T.Sites) {
    if (!S.Id)
      continue;
    Text.print("  #{} {}/{} {}:{} {}", S.Id, cstr(S.Category), cstr(S.Name),
               cstr(S.File), S.Line, cstr(S.Function));
    if (S.StableId)
      Text.print(" id={:x}", S.StableId);
    if (!S.Type.empty())
      Text.print(" type={}", cstr(S.Type));
    Text.put('\n');
  }
  Text.raw("threads:\n");
  for (const ThreadInfo &TI : T.Threads)
    Text.print("  {} tid {} {}\n", TI.Index, TI.Tid, cstr(TI.Name));
  Text.print("events: {}\n", eventCount(T));
  int64_t T0 = 0;
  bool First = true;
  JsonOut J(Text);
  for (const Event &E : events(T)) {
    if (First) // times from the first event's
      T0 = E.Ts;
    First = false;
    const SiteInfo &S = T.site(E.Site);
    Text.print("  {:>12.3f} us  t{}  ", (E.Ts - T0) / 1e3, E.Thread);
    Text.left(kindName(E), 7).put(' ').right("", 2 * size_t(E.Level));
    Text.print("#{} {}{}", E.Site, cstr(S.Name), eventSuffix(E));
    if (E.Kind == EventKind::Region)
      Text.print(" dur {:.3f} us", E.Dur / 1e3);
    if (E.Iter >= 0)
      Text.print(" iter {}", E.Iter);
    if (E.Unfinished)
      Text.raw(" UNFINISHED");
    if (E.Kind == EventKind::Watch || E.Alarm) {
      Text.raw(E.Alarm ? " check finite failed: " : " = ");
      J.value(E.V);
    }
    if (!E.A->empty()) {
      Text.raw(" args ");
      J.args(*E.A);
    }
    Text.put('\n');
  }
}

} // namespace sonde::trace
