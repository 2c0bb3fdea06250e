//===- Export.cpp - JSONL and Chrome trace exports, and dump --------------===//

#include "Export.h"
#include "Json.h"

#include <map>

namespace sonde::trace {

std::string eventName(const Trace &T, const Event &E) {
  const std::string &Name = T.site(E.Site).Name;
  switch (E.Ph) {
  case Event::Phase::Start:
    return Name + ".start";
  case Event::Phase::Stop:
    return Name + ".stop";
  case Event::Phase::None:
    break;
  }
  return Name;
}

namespace {

const char *kindName(EventKind K) {
  switch (K) {
  case EventKind::Region:
    return "region";
  case EventKind::Instant:
    return "instant";
  case EventKind::Watch:
    return "watch";
  }
  return "?";
}

/// The site number records show: the plan's stable id when there is one
/// (so records join with `sonde-rewrite --list-sites`), else the dense id.
uint64_t siteNumber(const SiteInfo &S) {
  return S.StableId ? S.StableId : S.Id;
}

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

void processRecord(JsonOut &J, const Trace &T, bool End) {
  const ProcessInfo &P = T.Process;
  J.open();
  J.key("kind").str("process");
  J.key("event").str(End ? "end" : "start");
  J.key("ts").num(End ? P.EndNs : P.StartNs);
  J.key("pid").num(P.Pid);
  J.key("rank").num(P.Rank);
  J.key("program").str(P.Program);
  if (End) {
    J.key("how").str(P.Ended ? P.How : "unknown");
    J.key("dropped").num(P.Dropped);
    if (!T.Complete)
      J.key("torn").raw("true");
  } else {
    J.key("ppid").num(P.PPid);
    J.key("host").str(P.Host);
  }
  J.close().raw("\n");
}

} // namespace

void exportJsonl(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  for (const Trace &T : Traces) {
    processRecord(J, T, false);
    for (const Event &E : T.Events) {
      const SiteInfo &S = T.site(E.Site);
      J.open();
      // A state site's records are watches, one per parameter; an api
      // site's are the pre and post (or error) records of its calls.
      bool Api = S.Kind == SiteKind::Api && E.Kind == EventKind::Watch;
      J.key("kind").str(E.Kind == EventKind::Watch && S.Kind == SiteKind::State
                            ? "state"
                        : Api ? "api"
                              : kindName(E.Kind));
      if (Api)
        apiFields(J, S, E.V);
      J.key("cat").str(S.topCategory());
      J.key("name").str(eventName(T, E));
      J.key("ts").num(E.Ts);
      if (E.Kind == EventKind::Region)
        J.key("dur").num(E.Dur);
      J.key("pid").num(T.Process.Pid);
      J.key("tid").num(T.tid(E.Thread));
      J.key("rank").num(T.Process.Rank);
      J.key("site").num(siteNumber(S));
      J.key("file").str(S.File);
      J.key("line").num(static_cast<uint64_t>(S.Line));
      J.key("func").str(S.Function);
      if (E.Kind == EventKind::Region)
        J.key("level").num(static_cast<uint64_t>(E.Level));
      if (E.Iter >= 0)
        J.key("iter").num(E.Iter);
      if (E.Kind == EventKind::Watch && !Api)
        J.key("value").value(E.V);
      if (E.Unfinished)
        J.key("unfinished").raw("true");
      if (!E.A->empty())
        J.key("args").args(*E.A);
      J.close().raw("\n");
    }
    processRecord(J, T, true);
  }
}

void exportChrome(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  J.raw("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
  bool FirstEvent = true;
  auto Begin = [&]() -> JsonOut & {
    if (!FirstEvent)
      J.raw(",\n");
    FirstEvent = false;
    return J.open();
  };
  for (const Trace &T : Traces) {
    uint64_t Pid = T.Process.Pid;
    Begin().key("ph").str("M");
    J.key("name").str("process_name");
    J.key("pid").num(Pid);
    J.key("args").open().key("name").str(
        T.Process.Program + " (rank " + std::to_string(T.Process.Rank) + ")");
    J.close().close();
    Begin().key("ph").str("M");
    J.key("name").str("process_sort_index");
    J.key("pid").num(Pid);
    J.key("args").open().key("sort_index").num(T.Process.Rank).close().close();
    for (const ThreadInfo &TI : T.Threads) {
      Begin().key("ph").str("M");
      J.key("name").str("thread_name");
      J.key("pid").num(Pid);
      J.key("tid").num(TI.Tid);
      J.key("args").open().key("name").str(
          TI.Name.empty() ? "thread " + std::to_string(TI.Index) : TI.Name);
      J.close().close();
    }
    for (const Event &E : T.Events) {
      const SiteInfo &S = T.site(E.Site);
      Begin();
      switch (E.Kind) {
      case EventKind::Region:
        J.key("ph").str("X");
        J.key("dur").micros(E.Dur);
        break;
      case EventKind::Instant:
        J.key("ph").str("i");
        J.key("s").str("t");
        break;
      case EventKind::Watch:
        if (E.V.isNumber()) {
          J.key("ph").str("C");
        } else {
          J.key("ph").str("i");
          J.key("s").str("t");
        }
        break;
      }
      J.key("name").str(eventName(T, E));
      J.key("cat").str(S.Category);
      J.key("ts").micros(E.Ts);
      J.key("pid").num(Pid);
      J.key("tid").num(T.tid(E.Thread));
      J.key("args").open();
      if (E.Kind == EventKind::Watch)
        J.key(E.V.isNumber() ? S.Name : std::string("value")).value(E.V);
      if (E.Kind != EventKind::Watch || !E.V.isNumber()) {
        // Counter tracks plot every arg: give them only the value.
        for (const auto &KV : *E.A)
          J.key(KV.first).value(KV.second);
        if (E.Iter >= 0)
          J.key("iter").num(E.Iter);
        if (E.Unfinished)
          J.key("unfinished").raw("true");
        J.key("func").str(S.Function);
        J.key("loc").str(S.File + ":" + std::to_string(S.Line));
      }
      J.close().close();
    }
  }
  J.raw("\n]}\n");
}

void printInfo(const std::vector<Trace> &Traces, bool Json, std::FILE *Out) {
  JsonOut J(Out);
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    size_t Sites = T.Sites.empty() ? 0 : T.Sites.size() - 1;
    if (!Json) {
      J.flush();
      std::fprintf(Out,
                   "%s: %s pid %llu rank %lld host %s, %s, %llu dropped, "
                   "%zu sites, %zu threads%s\n",
                   T.Path.c_str(), P.Program.c_str(),
                   (unsigned long long)P.Pid, (long long)P.Rank,
                   P.Host.c_str(), P.Ended ? P.How.c_str() : "no end record",
                   (unsigned long long)P.Dropped, Sites, T.Threads.size(),
                   T.Complete ? "" : ", torn");
      continue;
    }
    J.open();
    J.key("file").str(T.Path);
    J.key("program").str(P.Program);
    J.key("pid").num(P.Pid);
    J.key("rank").num(P.Rank);
    J.key("host").str(P.Host);
    J.key("how").str(P.Ended ? P.How : "unknown");
    J.key("dropped").num(P.Dropped);
    J.key("sites").num(static_cast<uint64_t>(Sites));
    J.key("threads").num(static_cast<uint64_t>(T.Threads.size()));
    J.key("complete").raw(T.Complete ? "true" : "false");
    J.close().raw("\n");
  }
}

void dumpTrace(const Trace &T, std::FILE *Out) {
  const ProcessInfo &P = T.Process;
  std::fprintf(Out, "file: %s (format %u.%u)\n", T.Path.c_str(),
               T.VersionMajor, T.VersionMinor);
  std::fprintf(Out, "process: %s pid %llu ppid %llu rank %lld host %s\n",
               P.Program.c_str(), (unsigned long long)P.Pid,
               (unsigned long long)P.PPid, (long long)P.Rank, P.Host.c_str());
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
  std::fprintf(Out, "events: %zu\n", T.Events.size());
  int64_t T0 = T.Events.empty() ? 0 : T.Events.front().Ts;
  JsonOut J(Out);
  for (const Event &E : T.Events) {
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
