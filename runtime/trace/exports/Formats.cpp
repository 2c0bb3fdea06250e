//===- Formats.cpp - DFTracer, TrainCheck and CSV exports -----------------===//
//
// The shapes other tools read (docs/exports.md cites where each field name
// comes from):
//  - DFTracer's release writer: "[" then one JSON object per line, then
//    "]"; complete events (ph X, integer microseconds) with args
//    {hhash, level, epoch, step, ...}, and metadata lines (ph M) naming the
//    process, the threads and the host hash.
//  - TrainCheck: JSON lines of API records ("function_call (pre)" /
//    "(post)" with func_call_id, meta_vars, args) and variable records
//    (var_name, var_type, mode, attributes), each process in time order.
//  - CSV of the watched values, one row per watch record (RFC 4180 quoting).
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "Json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace sonde::trace {

uint32_t stringHash(std::string_view S) {
  uint32_t H = 2166136261u; // FNV-1a
  for (unsigned char C : S) {
    H ^= C;
    H *= 16777619u;
  }
  return H;
}

namespace {

/// Site kinds whose watch records have their own shape in the exports
/// (docs/trace-format.md): a model's parameters, one record each, and the
/// pre/post/error records of an API call. Compared as numbers so this file
/// does not depend on the enum's spelling of them.
constexpr uint8_t StateKind = 6, ApiKind = 7;

uint8_t kindOf(const SiteInfo &S) { return static_cast<uint8_t>(S.Kind); }

/// An API record's phase ("pre", "post", "error") and call id.
std::string apiPhase(const Value &V) {
  const Value *P = V.get("phase");
  return P ? P->str() : std::string();
}
uint64_t apiCall(const Value &V) {
  const Value *C = V.get("call");
  if (!C)
    return 0;
  return C->K == Value::Kind::UInt ? C->U : static_cast<uint64_t>(C->I);
}

int64_t microsFloor(int64_t Ns) {
  return Ns >= 0 ? Ns / 1000 : -((-Ns + 999) / 1000);
}

} // namespace

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

    // An API call's pre record waits for its post (or error) record: the
    // two are one complete event spanning the call, as DFTracer records a
    // traced function. A call the process never returned from is written
    // last, with duration 0 and `unfinished`.
    std::map<uint64_t, const Event *> OpenCalls;
    auto ApiEvent = [&](const Event &Pre, const Event *Post) {
      const SiteInfo &S = T.site(Pre.Site);
      int64_t Ts = microsFloor(Pre.Ts);
      J.open();
      J.key("id").num(Id++);
      J.key("name").str(S.Name);
      J.key("cat").str(S.topCategory());
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
    for (const Event &E : T.Events) {
      const SiteInfo &S = T.site(E.Site);
      if (E.Kind == EventKind::Watch && kindOf(S) == ApiKind) {
        uint64_t Call = apiCall(E.V);
        if (apiPhase(E.V) == "pre") {
          OpenCalls[Call] = &E;
        } else {
          auto It = OpenCalls.find(Call);
          ApiEvent(It != OpenCalls.end() ? *It->second : E, &E);
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
      J.key("name").str(eventName(T, E));
      J.key("cat").str(S.topCategory());
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
      if (S.Category != S.topCategory())
        J.key("category").str(S.Category);
      J.key("func").str(S.Function);
      J.close().close().raw("\n");
    }
    for (const auto &KV : OpenCalls)
      ApiEvent(*KV.second, nullptr);
  }
  J.raw("]\n");
}

// --- TrainCheck ----------------------------------------------------------

namespace {

/// A value as TrainCheck's var_to_serializable writes it: a tensor summary
/// under its type name, anything else as itself.
void tcValue(JsonOut &J, const Value &V) {
  if (V.K == Value::Kind::Object && V.get("dtype") && V.get("shape")) {
    J.open().key("torch.Tensor").value(V).close();
    return;
  }
  J.value(V);
}

/// One TrainCheck line to write: at `Time`, from event `Index`.
struct TcLine {
  int64_t Time;
  uint32_t Index;
  enum Type : uint8_t { Pre, Post, Var } Ty;
};

bool isOwnArg(const SiteInfo &S, const std::string &Name) {
  return std::find(S.ArgNames.begin(), S.ArgNames.end(), Name) !=
         S.ArgNames.end();
}

/// TrainCheck's meta_vars: the context in force (epoch, step, ...), without
/// the site's own args, which go to `args`.
void metaVars(JsonOut &J, const SiteInfo &S, const Event &E, bool OwnOnly) {
  J.open();
  for (const auto &KV : *E.A)
    if (isOwnArg(S, KV.first) == OwnOnly)
      J.key(KV.first).value(KV.second);
  J.close();
}

/// A variable record's attributes: a structured value's members (a tensor
/// summary: dtype, shape, min, max, mean, hash...), else {"value": v}.
void attributes(JsonOut &J, const Value &V) {
  J.open();
  if (V.K == Value::Kind::Object) {
    for (const auto &KV : V.members())
      J.key(KV.first).value(KV.second);
  } else {
    J.key("value").value(V);
  }
  J.close();
}

/// An API call record (engine: site kind 7, a watch whose value is
/// {phase, call, args} or {phase, call, ret}) as TrainCheck's
/// function_wrapper writes its pre and post records.
void apiRecord(JsonOut &J, const Trace &T, const Event &E, const SiteInfo &S,
               int64_t Time) {
  std::string Ph = apiPhase(E.V);
  J.key("func_call_id")
      .str(std::to_string(T.Process.Pid) + "_" + std::to_string(apiCall(E.V)));
  J.key("thread_id").num(T.tid(E.Thread));
  J.key("process_id").num(T.Process.Pid);
  J.key("meta_vars").args(*E.A);
  J.key("type").str(Ph == "pre"    ? "function_call (pre)"
                    : Ph == "post" ? "function_call (post)"
                                   : "function_call (post) (exception)");
  J.key("function").str(S.Name);
  J.key("is_bound_method").raw("false");
  J.key("obj_id").raw("null");
  if (Ph == "pre") {
    // Positional, as TrainCheck's to_dict_args_kwargs keys them.
    J.key("args").open();
    if (const Value *A = E.V.get("args")) {
      for (size_t I = 0; I < A->items().size(); ++I) {
        J.key(std::to_string(I));
        tcValue(J, A->items()[I]);
      }
    }
    J.close();
    J.key("kwargs").raw("{}");
  } else if (Ph == "post") {
    J.key("return_values");
    if (const Value *Ret = E.V.get("ret"))
      tcValue(J, *Ret);
    else
      J.raw("null");
  } else {
    // The runtime sees that an exception left the call, not which one.
    J.key("exception").str("unknown");
    J.key("exception_msg").str("");
  }
  J.key("time").num(Time);
  J.key("sonde").open();
  J.key("func").str(S.Function);
  J.key("file").str(S.File);
  J.key("line").num(static_cast<uint64_t>(S.Line));
  J.close();
}

/// A model-state record (torch: site kind 6, one watch per parameter) as a
/// TrainCheck variable record of a torch.nn.Parameter: its attributes are
/// what convert_var_to_dict dumps (data as stats or hash, grad, dtype,
/// shape, requires_grad).
void stateRecord(JsonOut &J, const Trace &T, const Event &E, const SiteInfo &S,
                 const std::string &Name, bool New, int64_t Time) {
  const Value &V = E.V;
  J.key("var_name").str(Name);
  J.key("var_type").str("torch.nn.Parameter");
  J.key("mode").str(New ? "new" : "update");
  J.key("dump_loc").str(S.Function);
  J.key("process_id").num(T.Process.Pid);
  J.key("thread_id").num(T.tid(E.Thread));
  J.key("time").num(Time);
  J.key("meta_vars").args(*E.A);
  J.key("attributes").open();
  J.key("data");
  if (const Value *H = V.get("hash")) {
    J.value(*H);
  } else {
    J.open();
    for (const char *K : {"min", "max", "mean", "std", "norm", "nan", "inf"})
      if (const Value *M = V.get(K))
        J.key(K).value(*M);
    if (const Value *Sh = V.get("shape"))
      J.key("shape").value(*Sh);
    J.close();
  }
  J.key("grad");
  if (const Value *G = V.get("grad"))
    J.value(*G);
  else
    J.raw("null");
  if (const Value *D = V.get("dtype"))
    J.key("dtype").str("torch." + D->str());
  for (const char *K : {"shape", "device", "requires_grad"})
    if (const Value *M = V.get(K))
      J.key(K).value(*M);
  J.close();
  J.key("type").str("state_change");
  J.key("sonde_site").str(S.Name);
}

} // namespace

void exportTraincheck(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    std::vector<TcLine> Lines;
    Lines.reserve(T.Events.size() * 2);
    for (uint32_t I = 0; I < T.Events.size(); ++I) {
      const Event &E = T.Events[I];
      if (E.Kind == EventKind::Region) {
        Lines.push_back({E.Ts, I, TcLine::Pre});
        // An unfinished region is a call without its post record, which
        // TrainCheck reads as an incomplete call.
        if (!E.Unfinished)
          Lines.push_back({E.Ts + E.Dur, I, TcLine::Post});
      } else if (E.Kind == EventKind::Watch) {
        bool Api = kindOf(T.site(E.Site)) == ApiKind;
        Lines.push_back({E.Ts, I,
                         !Api                     ? TcLine::Var
                         : apiPhase(E.V) == "pre" ? TcLine::Pre
                                                  : TcLine::Post});
      }
    }
    // Each process in time order, as TrainCheck's reader expects; a post at
    // the same time as a later pre comes first (the call ended first).
    std::sort(Lines.begin(), Lines.end(), [](const TcLine &A, const TcLine &B) {
      if (A.Time != B.Time)
        return A.Time < B.Time;
      bool APost = A.Ty == TcLine::Post, BPost = B.Ty == TcLine::Post;
      if (APost != BPost)
        return APost;
      // Posts of nested calls ending together: the inner (later) one first.
      return APost ? A.Index > B.Index : A.Index < B.Index;
    });
    std::set<std::pair<std::string, std::string>> SeenVars;
    for (const TcLine &L : Lines) {
      const Event &E = T.Events[L.Index];
      const SiteInfo &S = T.site(E.Site);
      J.open();
      if (kindOf(S) == ApiKind && E.Kind == EventKind::Watch) {
        apiRecord(J, T, E, S, L.Time);
      } else if (kindOf(S) == StateKind && E.V.K == Value::Kind::Object) {
        const Value *Param = E.V.get("param");
        std::string Name = Param ? Param->str() : S.Name;
        bool New = SeenVars.emplace(Name, S.Name).second;
        stateRecord(J, T, E, S, Name, New, L.Time);
      } else if (L.Ty == TcLine::Var) {
        bool New = SeenVars.emplace(S.Name, S.Function).second;
        J.key("var_name").str(S.Name);
        J.key("var_type").str(S.Type.empty() ? "unknown" : S.Type);
        J.key("mode").str(New ? "new" : "update");
        J.key("dump_loc").str(S.Function);
        J.key("process_id").num(P.Pid);
        J.key("thread_id").num(T.tid(E.Thread));
        J.key("time").num(L.Time);
        J.key("meta_vars");
        metaVars(J, S, E, false);
        J.key("attributes");
        attributes(J, E.V);
        J.key("type").str("state_change");
      } else {
        // "r": never the id of an API call (<pid>_<call>) of this process.
        J.key("func_call_id")
            .str(std::to_string(P.Pid) + "_r" + std::to_string(L.Index));
        J.key("thread_id").num(T.tid(E.Thread));
        J.key("process_id").num(P.Pid);
        J.key("meta_vars");
        metaVars(J, S, E, false);
        J.key("type").str(L.Ty == TcLine::Pre ? "function_call (pre)"
                                              : "function_call (post)");
        J.key("function").str(S.Name);
        J.key("is_bound_method").raw("false");
        J.key("obj_id").raw("null");
        if (L.Ty == TcLine::Pre) {
          J.key("args");
          metaVars(J, S, E, true);
          J.key("kwargs").raw("{}");
        } else {
          J.key("return_values").raw("null");
        }
        J.key("time").num(L.Time);
        J.key("sonde").open();
        J.key("cat").str(S.Category);
        J.key("func").str(S.Function);
        J.key("file").str(S.File);
        J.key("line").num(static_cast<uint64_t>(S.Line));
        J.key("level").num(static_cast<uint64_t>(E.Level));
        if (E.Iter >= 0)
          J.key("iter").num(E.Iter);
        J.close();
      }
      J.close().raw("\n");
    }
  }
}

// --- CSV -------------------------------------------------------------------

namespace {

void csvField(std::string &Row, std::string_view S) {
  if (S.find_first_of(",\"\r\n") == std::string_view::npos) {
    Row.append(S);
    return;
  }
  Row.push_back('"');
  for (char C : S) {
    if (C == '"')
      Row.push_back('"');
    Row.push_back(C);
  }
  Row.push_back('"');
}

/// A value as one CSV cell: numbers and strings plainly, structures as
/// compact JSON.
std::string cell(const Value &V) {
  switch (V.K) {
  case Value::Kind::Null:
    return "";
  case Value::Kind::String:
    return V.str();
  case Value::Kind::Bool:
    return V.B ? "true" : "false";
  case Value::Kind::Int:
    return std::to_string(V.I);
  case Value::Kind::UInt:
    return std::to_string(V.U);
  case Value::Kind::Float: {
    if (std::isnan(V.F))
      return "NaN";
    if (std::isinf(V.F))
      return V.F > 0 ? "Infinity" : "-Infinity";
    char B[32];
    auto R = std::to_chars(B, B + sizeof B, V.F);
    return std::string(B, R.ptr);
  }
  default: {
    // JsonOut writes to a FILE; a memory stream keeps one formatter.
    char *Buf = nullptr;
    size_t Len = 0;
    std::FILE *M = open_memstream(&Buf, &Len);
    {
      JsonOut J(M);
      J.value(V);
    }
    std::fclose(M);
    std::string S(Buf, Len);
    std::free(Buf);
    return S;
  }
  }
}

} // namespace

void exportCsv(const std::vector<Trace> &Traces, std::FILE *Out) {
  // Columns: the fixed ones, every context arg name seen on a watch, then
  // `value` and one column per member of structured values (tensor
  // summaries: value.mean, value.shape...).
  std::vector<std::string> ArgCols, ValueCols;
  std::set<std::string> SeenArg, SeenValue;
  // API call records are calls, not watched values: the other exports
  // have them.
  auto IsValue = [](const Trace &T, const Event &E) {
    return E.Kind == EventKind::Watch && kindOf(T.site(E.Site)) != ApiKind;
  };
  for (const Trace &T : Traces)
    for (const Event &E : T.Events) {
      if (!IsValue(T, E))
        continue;
      for (const auto &KV : *E.A)
        if (SeenArg.insert(KV.first).second)
          ArgCols.push_back(KV.first);
      if (E.V.K == Value::Kind::Object)
        for (const auto &KV : E.V.members())
          if (SeenValue.insert(KV.first).second)
            ValueCols.push_back(KV.first);
    }
  std::string Row = "time_ns,pid,rank,tid,name,func,file,line";
  for (const std::string &A : ArgCols) {
    Row.push_back(',');
    csvField(Row, A);
  }
  Row += ",value";
  for (const std::string &V : ValueCols) {
    Row.push_back(',');
    csvField(Row, "value." + V);
  }
  Row += "\r\n";
  std::fwrite(Row.data(), 1, Row.size(), Out);
  for (const Trace &T : Traces)
    for (const Event &E : T.Events) {
      if (!IsValue(T, E))
        continue;
      const SiteInfo &S = T.site(E.Site);
      Row.clear();
      Row += std::to_string(E.Ts) + "," + std::to_string(T.Process.Pid) + "," +
             std::to_string(T.Process.Rank) + "," +
             std::to_string(T.tid(E.Thread)) + ",";
      csvField(Row, S.Name);
      Row.push_back(',');
      csvField(Row, S.Function);
      Row.push_back(',');
      csvField(Row, S.File);
      Row += "," + std::to_string(S.Line);
      for (const std::string &A : ArgCols) {
        Row.push_back(',');
        for (const auto &KV : *E.A)
          if (KV.first == A) {
            csvField(Row, cell(KV.second));
            break;
          }
      }
      Row.push_back(',');
      if (E.V.K != Value::Kind::Object)
        csvField(Row, cell(E.V));
      for (const std::string &V : ValueCols) {
        Row.push_back(',');
        if (E.V.K == Value::Kind::Object)
          if (const Value *M = E.V.get(V))
            csvField(Row, cell(*M));
      }
      Row += "\r\n";
      std::fwrite(Row.data(), 1, Row.size(), Out);
    }
}

} // namespace sonde::trace
