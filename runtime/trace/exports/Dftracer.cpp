//===- Dftracer.cpp - The DFTracer export ---------------------------------===//
//
// `sonde export --format dftracer`: DFTracer's release writer's shape
// (docs/exports.md cites where each field name comes from): "[" then one
// JSON object per line, then "]"; complete events (ph X, integer
// microseconds) with args {hhash, level, epoch, step, ...}, and metadata
// lines (ph M) naming the process, the threads and the host hash. An API
// call's pre and post records are one event spanning the call.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "ExportCommon.h"
#include "Json.h"

#include <map>

namespace sonde::trace {
void exportDftracer(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  J.raw("[\n");
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    uint64_t Id = 0;
    uint32_t HHash = stringHash(P.Host);
    uint64_t MainTid = T.Threads.empty() ? P.Pid : T.Threads.front().Tid;
    auto Meta = [&](std::string_view Name, uint64_t Tid) -> JsonOut & {
      J.open();
      J.key("id").num(Id++);
      J.key("name").str(Name);
      J.key("cat").str("dftracer");
      J.key("pid").num(P.Pid);
      J.key("tid").num(Tid);
      J.key("ph").str("M");
      return J.key("args").open();
    };
    Meta("process_name", MainTid)
        .key("name")
        .str(P.Program + " (rank " + std::to_string(P.Rank) + ")");
    J.close().close().raw("\n");
    for (const ThreadInfo &TI : T.Threads) {
      Meta("thread_name", TI.Tid)
          .key("name")
          .str(TI.Name.empty() ? std::to_string(TI.Tid) : TI.Name);
      J.close().close().raw("\n");
    }
    Meta("HH", MainTid).key("name").str(P.Host);
    J.key("value").num(static_cast<uint64_t>(HHash));
    J.close().close().raw("\n");
    Meta("PR", MainTid).key("name").str("rank");
    J.key("value").num(P.Rank);
    J.close().close().raw("\n");
    // The rest of the process's place in its job, when a launcher gave it.
    for (auto [Name, V] :
         {std::pair<const char *, int64_t>{"local_rank", P.LocalRank},
          {"world_size", P.WorldSize}})
      if (V >= 0) {
        Meta("PR", MainTid).key("name").str(Name);
        J.key("value").num(V);
        J.close().close().raw("\n");
      }

    // An API call's pre record waits for its post (or error) record: the
    // two are one complete event spanning the call, as DFTracer records a
    // traced function. A call the process never returned from is written
    // last, with duration 0 and `unfinished`.
    std::map<uint64_t, Event> OpenCalls; // pre records, by call
    auto ApiEvent = [&](const Event &Pre, const Event *Post) {
      const SiteInfo &S = T.site(Pre.Site);
      int64_t Ts = microsFloor(Pre.Ts);
      J.open();
      J.key("id").num(Id++);
      J.key("name").str(S.Name);
      J.key("cat").str(topCategoryOf(S));
      J.key("pid").num(P.Pid);
      J.key("tid").num(T.tid(Pre.Thread));
      J.key("ts").num(Ts);
      J.key("dur").num(Post ? microsFloor(Post->Ts) - Ts : int64_t(0));
      J.key("ph").str("X");
      J.key("args").open();
      J.key("hhash").num(static_cast<uint64_t>(HHash));
      J.key("level").num(static_cast<uint64_t>(Pre.Level));
      for (const auto &KV : *Pre.A)
        if (KV.first != "hhash" && KV.first != "level")
          J.key(KV.first).value(KV.second);
      J.key("call").num(apiCall(Pre.V));
      if (const Value *A = Pre.V.get("args"))
        J.key("call_args").value(*A);
      if (const Value *R = Post ? Post->V.get("ret") : nullptr)
        J.key("ret").value(*R);
      if (Post && apiPhase(Post->V) == "error")
        J.key("error").raw("true");
      if (!Post)
        J.key("unfinished").raw("true");
      J.key("func").str(S.Function);
      J.close().close().raw("\n");
    };
    for (const Event &E : events(T)) {
      const SiteInfo &S = T.site(E.Site);
      if (E.Kind == EventKind::Watch && S.Kind == SiteKind::Api) {
        uint64_t Call = apiCall(E.V);
        if (apiPhase(E.V) == "pre") {
          OpenCalls[Call] = E;
        } else {
          auto It = OpenCalls.find(Call);
          ApiEvent(It != OpenCalls.end() ? It->second : E, &E);
          if (It != OpenCalls.end())
            OpenCalls.erase(It);
        }
        continue;
      }
      int64_t Ts = microsFloor(E.Ts);
      int64_t Dur =
          E.Kind == EventKind::Region ? microsFloor(E.Ts + E.Dur) - Ts : 0;
      J.open();
      J.key("id").num(Id++);
      J.key("name").str(S.Name, eventSuffix(E));
      J.key("cat").str(topCategoryOf(S));
      J.key("pid").num(P.Pid);
      J.key("tid").num(T.tid(E.Thread));
      J.key("ts").num(Ts);
      J.key("dur").num(Dur);
      J.key("ph").str("X");
      J.key("args").open();
      J.key("hhash").num(static_cast<uint64_t>(HHash));
      J.key("level").num(static_cast<uint64_t>(E.Level));
      for (const auto &KV : *E.A)
        if (KV.first != "hhash" && KV.first != "level")
          J.key(KV.first).value(KV.second);
      if (E.Iter >= 0)
        J.key("iter").num(E.Iter);
      if (E.Kind == EventKind::Watch)
        J.key("value").value(E.V);
      if (E.Kind == EventKind::Instant)
        J.key("instant").raw("true");
      if (E.Unfinished)
        J.key("unfinished").raw("true");
      if (S.Category != topCategoryOf(S))
        J.key("category").str(S.Category);
      J.key("func").str(S.Function);
      J.close().close().raw("\n");
    }
    for (const auto &KV : OpenCalls)
      ApiEvent(KV.second, nullptr);
  }
  J.raw("]\n");
}

} // namespace sonde::trace
