//===- Chrome.cpp - The Chrome trace export (Perfetto) --------------------===//
//
// `sonde export --format chrome`: Chrome's trace event JSON, which
// Perfetto's UI opens. Regions are X events, instants i events, numeric
// watches counters (C), process and thread names M events; times are
// microseconds since timeOrigin(), given in `otherData.origin_unix_ns`.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "ExportCommon.h"
#include "Json.h"
#include "MemberCache.h"

namespace sonde::trace {

void exportChrome(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  // Microseconds since the origin: absolute ones (1.8e15 us, with three
  // decimals) are more digits than a double holds. The origin is in
  // otherData, as text.
  int64_t Origin = timeOrigin(Traces);
  J.raw("{\"displayTimeUnit\":\"ms\",\"otherData\":").open();
  J.key("origin_unix_ns").str(unixNsText(Origin));
  J.key("time_unit").str("us since origin_unix_ns");
  J.close().raw(",\"traceEvents\":[\n");
  bool FirstEvent = true;
  auto Begin = [&]() -> JsonOut & {
    if (!FirstEvent)
      J.raw(",\n");
    FirstEvent = false;
    return J.open();
  };
  // Metadata events carry the category Chrome itself gives them.
  auto Meta = [&](const char *Name) -> JsonOut & {
    Begin().key("ph").str("M");
    J.key("cat").str("__metadata");
    return J.key("name").str(Name);
  };
  MemberCache Phases, Names, Places, Threads, Counters;
  for (const Trace &T : Traces) {
    uint64_t Pid = T.Process.Pid;
    // One track per process, named by its rank (and the job's size), in
    // rank order; its host as a label, for jobs across machines.
    const ProcessInfo &P = T.Process;
    Meta("process_name");
    J.key("pid").num(Pid);
    J.key("args").open().key("name").str(
        P.Program + " (rank " + std::to_string(P.Rank) +
        (P.WorldSize > 0 ? " of " + std::to_string(P.WorldSize) : "") + ")");
    J.close().close();
    if (!P.Host.empty()) {
      Meta("process_labels");
      J.key("pid").num(Pid);
      J.key("args").open().key("labels").str("host " + P.Host);
      J.close().close();
    }
    Meta("process_sort_index");
    J.key("pid").num(Pid);
    J.key("args").open().key("sort_index").num(T.Process.Rank).close().close();
    for (const ThreadInfo &TI : T.Threads) {
      Meta("thread_name");
      J.key("pid").num(Pid);
      J.key("tid").num(TI.Tid);
      J.key("args").open().key("name").str(
          TI.Name.empty() ? "thread " + std::to_string(TI.Index) : TI.Name);
      J.close().close();
    }
    // What every event of a site (of a phase) or of a thread writes the
    // same, formatted once per trace.
    Names.clear();
    Places.clear();
    Threads.clear();
    Counters.clear();
    for (const Event &E : events(T)) {
      const SiteInfo &S = T.site(E.Site);
      // A numeric watch (or a one-element tensor's value) is a counter.
      const Value *Scalar =
          E.Kind == EventKind::Watch ? scalarOf(E.V) : nullptr;
      bool Counter = Scalar != nullptr;
      Begin();
      // X for a region, a counter C, anything else an instant i.
      unsigned Ph = E.Kind == EventKind::Region ? 0 : Counter ? 1 : 2;
      J.members(Phases.get(Ph, [&](JsonOut &H) {
        H.key("ph").str(Ph == 0 ? "X" : Ph == 1 ? "C" : "i");
        if (Ph == 2)
          H.key("s").str("t");
      }));
      if (E.Kind == EventKind::Region)
        J.key("dur").micros(E.Dur);
      J.members(Names.get(uint64_t(E.Site) * 3 + static_cast<uint64_t>(E.Ph),
                          [&](JsonOut &H) {
                            H.key("name").str(S.Name, eventSuffix(E));
                            H.key("cat").str(S.Category);
                          }));
      J.key("ts").micros(E.Ts - Origin);
      J.members(Threads.get(E.Thread, [&](JsonOut &H) {
        H.key("pid").num(Pid);
        H.key("tid").num(T.tid(E.Thread));
      }));
      J.key("args").open();
      if (Counter) {
        J.members(Counters.get(E.Site, [&](JsonOut &H) {
           H.key(S.Name);
         })).value(*Scalar);
      } else if (E.Kind == EventKind::Watch) {
        J.key("value").value(E.V);
      }
      if (!Counter) {
        // Counter tracks plot every arg: give them only the value.
        for (const auto &KV : *E.A)
          J.key(KV.first).value(KV.second);
        if (E.Iter >= 0)
          J.key("iter").num(E.Iter);
        if (E.Unfinished)
          J.key("unfinished").raw("true");
        J.members(Places.get(E.Site, [&](JsonOut &H) {
          H.key("func").str(S.Function);
          char Line[16];
          char *End = fmt::format_to(Line, ":{}", S.Line);
          H.key("loc").str(S.File, std::string_view(Line, End - Line));
        }));
      }
      J.close().close();
    }
  }
  J.raw("\n]}\n");
}

} // namespace sonde::trace
