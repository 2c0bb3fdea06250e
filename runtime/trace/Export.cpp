//===- Export.cpp - JSONL and Chrome trace exports, and dump --------------===//

#include "Export.h"
#include "Json.h"

#include <algorithm>
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

const Value *scalarOf(const Value &V) {
  if (V.isNumber())
    return &V;
  if (V.K != Value::Kind::Object)
    return nullptr;
  const Value *Numel = V.get("numel"), *Scalar = V.get("value");
  if (!Numel || !Numel->isNumber() || Numel->number() != 1 || !Scalar ||
      !Scalar->isNumber())
    return nullptr;
  return Scalar;
}

int64_t timeOrigin(const std::vector<Trace> &Traces) {
  bool Any = false;
  int64_t Origin = 0;
  auto Take = [&](int64_t Ts) {
    Origin = Any ? std::min(Origin, Ts) : Ts;
    Any = true;
  };
  for (const Trace &T : Traces) {
    if (T.Process.StartNs)
      Take(T.Process.StartNs);
    for (const Event &E : T.Events)
      Take(E.Ts);
  }
  return Origin;
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

/// A site's stable id as `sonde-rewrite --list-sites` prints it: 16
/// lowercase hex digits (a string: as a JSON number, a 64-bit id would be
/// rounded by readers that hold numbers as doubles).
std::string stableIdText(uint64_t Id) {
  char B[24];
  std::snprintf(B, sizeof B, "%016llx", static_cast<unsigned long long>(Id));
  return B;
}

/// The absolute time `Origin` as a string of decimal nanoseconds since the
/// Unix epoch (above 2^53: exact only as text).
std::string unixNsText(int64_t Origin) { return std::to_string(Origin); }

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

void processRecord(JsonOut &J, const Trace &T, bool End, int64_t Origin) {
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
  // Times are nanoseconds since one origin (below 2^53, exact in every
  // JSON reader); each process start record gives it as text.
  int64_t Origin = timeOrigin(Traces);
  for (const Trace &T : Traces) {
    processRecord(J, T, false, Origin);
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
      J.key("ts").num(E.Ts - Origin);
      if (E.Kind == EventKind::Region)
        J.key("dur").num(E.Dur);
      J.key("pid").num(T.Process.Pid);
      J.key("tid").num(T.tid(E.Thread));
      J.key("rank").num(T.Process.Rank);
      J.key("site").num(static_cast<uint64_t>(S.Id));
      if (S.StableId)
        J.key("site_id").str(stableIdText(S.StableId));
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
    processRecord(J, T, true, Origin);
  }
}

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
  for (const Trace &T : Traces) {
    uint64_t Pid = T.Process.Pid;
    Meta("process_name");
    J.key("pid").num(Pid);
    J.key("args").open().key("name").str(
        T.Process.Program + " (rank " + std::to_string(T.Process.Rank) + ")");
    J.close().close();
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
    for (const Event &E : T.Events) {
      const SiteInfo &S = T.site(E.Site);
      // A numeric watch (or a one-element tensor's value) is a counter.
      const Value *Scalar =
          E.Kind == EventKind::Watch ? scalarOf(E.V) : nullptr;
      bool Counter = Scalar != nullptr;
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
        if (Counter) {
          J.key("ph").str("C");
        } else {
          J.key("ph").str("i");
          J.key("s").str("t");
        }
        break;
      }
      J.key("name").str(eventName(T, E));
      J.key("cat").str(S.Category);
      J.key("ts").micros(E.Ts - Origin);
      J.key("pid").num(Pid);
      J.key("tid").num(T.tid(E.Thread));
      J.key("args").open();
      if (Counter)
        J.key(S.Name).value(*Scalar);
      else if (E.Kind == EventKind::Watch)
        J.key("value").value(E.V);
      if (!Counter) {
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
