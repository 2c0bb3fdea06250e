//===- Jsonl.cpp - The JSONL export ---------------------------------------===//
//
// `sonde export --format jsonl`: one JSON object per line (docs/exports.md),
// each process between its start and end records, in time order; `ts` in ns
// since timeOrigin(), which the process start record gives as text.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "ExportCommon.h"
#include "Json.h"
#include "MemberCache.h"
#include "ProcessFields.h"

namespace sonde::trace {
namespace {

/// The fields of an API call record (a watch of an `Api` site whose value
/// is {phase, call, args | ret}): docs/trace-format.md.
void apiFields(JsonOut &J, const SiteInfo &S, const Value &V) {
  const Value *Phase = V.get("phase");
  J.key("phase").str(Phase ? Phase->str() : "?");
  if (const Value *Call = V.get("call"))
    J.key("call").value(*Call);
  J.key("function").str(S.Name);
  if (const Value *A = V.get("args")) {
    J.key("call_args").open();
    const std::vector<Value> &Items = A->items();
    for (size_t I = 0; I < Items.size(); ++I)
      J.key(I < S.ArgNames.size() ? S.ArgNames[I] : "arg" + std::to_string(I))
          .value(Items[I]);
    J.close();
  }
  if (const Value *R = V.get("ret"))
    J.key("ret").value(*R);
}

} // namespace

void jsonlProcess(JsonOut &J, const Trace &T, bool End, int64_t Origin) {
  const ProcessInfo &P = T.Process;
  J.open();
  J.key("kind").str("process");
  J.key("event").str(End ? "end" : "start");
  // A file cut before its process block has no start time: null.
  if (int64_t Ts = End ? P.EndNs : P.StartNs)
    J.key("ts").num(Ts - Origin);
  else
    J.key("ts").raw("null");
  if (!End)
    J.key("origin_unix_ns").str(unixNsText(Origin));
  processFields(J, T,
                {ProcessField::Pid, ProcessField::Rank, ProcessField::Program});
  if (End) {
    processFields(J, T, {ProcessField::How, ProcessField::Dropped});
    if (!T.Complete)
      J.key("torn").raw("true");
  } else {
    processFields(J, T, {ProcessField::PPid, ProcessField::Host});
  }
  J.close().raw("\n");
}

struct JsonlCache {
  /// What every event of a site (of a kind and phase) or of a thread writes
  /// the same, formatted once per trace.
  MemberCache Heads, Places, Threads;
  void clear() {
    Heads.clear();
    Places.clear();
    Threads.clear();
  }
};

namespace {

/// The members `Make` writes: from `Cache` under `Key` when there is one,
/// else straight into `J`. The same text either way.
template <class MakeFn>
void members(JsonOut &J, MemberCache *Cache, uint64_t Key, MakeFn &&Make) {
  if (Cache)
    J.members(Cache->get(Key, Make));
  else
    Make(J);
}

} // namespace

void jsonlEvent(JsonOut &J, const Trace &T, const Event &E, int64_t Origin,
                JsonlCache *Cache) {
  const SiteInfo &S = T.site(E.Site);
  J.open();
  // A state site's records are watches, one per parameter; an api
  // site's are the pre and post (or error) records of its calls.
  bool Api = S.Kind == SiteKind::Api && E.Kind == EventKind::Watch;
  const char *Kind = E.Kind == EventKind::Watch && S.Kind == SiteKind::State
                         ? "state"
                     : Api ? "api"
                           : kindName(E);
  auto Name = [&](JsonOut &H) {
    H.key("cat").str(topCategoryOf(S));
    H.key("name").str(S.Name, eventSuffix(E));
  };
  if (Api) {
    J.key("kind").str(Kind);
    apiFields(J, S, E.V);
    Name(J);
  } else {
    uint64_t Variant =
        static_cast<uint64_t>(E.Kind) * 3 + static_cast<uint64_t>(E.Ph);
    members(J, Cache ? &Cache->Heads : nullptr, uint64_t(E.Site) * 9 + Variant,
            [&](JsonOut &H) {
              H.key("kind").str(Kind);
              Name(H);
            });
  }
  J.key("ts").num(E.Ts - Origin);
  if (E.Kind == EventKind::Region)
    J.key("dur").num(E.Dur);
  members(J, Cache ? &Cache->Threads : nullptr, E.Thread, [&](JsonOut &H) {
    H.key("pid").num(T.Process.Pid);
    H.key("tid").num(T.tid(E.Thread));
    H.key("rank").num(T.Process.Rank);
  });
  members(J, Cache ? &Cache->Places : nullptr, E.Site, [&](JsonOut &H) {
    H.key("site").num(static_cast<uint64_t>(S.Id));
    if (S.StableId)
      H.key("site_id").str(stableIdText(S.StableId));
    H.key("file").str(S.File);
    H.key("line").num(static_cast<uint64_t>(S.Line));
    H.key("func").str(S.Function);
  });
  if (E.Kind == EventKind::Region)
    J.key("level").num(static_cast<uint64_t>(E.Level));
  if (E.Iter >= 0)
    J.key("iter").num(E.Iter);
  if (E.Alarm)
    J.key("check").str("finite");
  if ((E.Kind == EventKind::Watch && !Api) || E.Alarm)
    J.key("value").value(E.V);
  if (E.Unfinished)
    J.key("unfinished").raw("true");
  if (!E.A->empty())
    J.key("args").args(*E.A);
  J.close().raw("\n");
}

void exportJsonl(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  // Times are nanoseconds since one origin (below 2^53, exact in every
  // JSON reader); each process start record gives it as text.
  int64_t Origin = timeOrigin(Traces);
  JsonlCache Cache;
  for (const Trace &T : Traces) {
    Cache.clear();
    jsonlProcess(J, T, false, Origin);
    for (const Event &E : events(T))
      jsonlEvent(J, T, E, Origin, &Cache);
    jsonlProcess(J, T, true, Origin);
  }
}

} // namespace sonde::trace
