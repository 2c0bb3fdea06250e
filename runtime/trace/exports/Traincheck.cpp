//===- Traincheck.cpp - The TrainCheck export -----------------------------===//
//
// `sonde export --format traincheck`: TrainCheck's JSON lines
// (docs/exports.md): API records ("function_call (pre)" / "(post)" with
// func_call_id, meta_vars, args) and variable records (var_name, var_type,
// mode, attributes), each process in time order. Regions are calls too.
// Values are written in TrainCheck's typed form (`{"NoneType": null}`,
// `{"torch.FloatTensor": {...}}`), C++ API names as the Python names they
// correspond to (TraincheckNames.h), and meta_vars' `step` counts the
// optimizer's steps as TrainCheck's does.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "ExportCommon.h"
#include "Json.h"
#include "TraincheckNames.h"

#include <algorithm>
#include <memory>
#include <queue>
#include <set>

namespace sonde::trace {
namespace {

/// The type name TrainCheck gives a tensor (`tensor.type()`): the legacy
/// class of its dtype, under torch.cuda when on a GPU.
std::string tensorType(const Value &V) {
  static const std::pair<const char *, const char *> Classes[] = {
      {"float32", "FloatTensor"}, {"float64", "DoubleTensor"},
      {"float16", "HalfTensor"},  {"bfloat16", "BFloat16Tensor"},
      {"int64", "LongTensor"},    {"int32", "IntTensor"},
      {"int16", "ShortTensor"},   {"int8", "CharTensor"},
      {"uint8", "ByteTensor"},    {"bool", "BoolTensor"}};
  const Value *D = V.get("dtype");
  const Value *Dev = V.get("device");
  bool Cuda = Dev && Dev->str().rfind("cuda", 0) == 0;
  for (const auto &[Dtype, Class] : Classes)
    if (D && D->str() == Dtype)
      return std::string(Cuda ? "torch.cuda." : "torch.") + Class;
  return "torch.Tensor";
}

/// A value as TrainCheck's var_to_serializable writes it: under its type's
/// name (`{"NoneType": null}`, `{"int": 3}`, `{"list": [64, 10]}`), a
/// tensor summary under the tensor's type with its dtype as torch writes
/// it (`{"torch.FloatTensor": {"dtype": "torch.float32", ...}}`).
void tcValue(JsonOut &J, const Value &V) {
  J.open();
  switch (V.K) {
  case Value::Kind::Null:
    J.key("NoneType").raw("null");
    break;
  case Value::Kind::Bool:
    J.key("bool").value(V);
    break;
  case Value::Kind::Int:
  case Value::Kind::UInt:
    J.key("int").value(V);
    break;
  case Value::Kind::Float:
    J.key("float").value(V);
    break;
  case Value::Kind::String:
  case Value::Kind::Truncated:
    J.key("str").value(V);
    break;
  case Value::Kind::Array:
    J.key("list").value(V);
    break;
  case Value::Kind::Object:
    if (!V.get("dtype") || !V.get("shape")) {
      J.key("dict").value(V);
      break;
    }
    J.key(tensorType(V)).open();
    for (const auto &[Name, M] : V.members()) {
      if (Name == "dtype")
        J.key("dtype").str("torch." + M.str());
      else
        J.key(Name).value(M);
      if (Name == "device")
        J.key("is_cuda").raw(M.str().rfind("cuda", 0) == 0 ? "true" : "false");
    }
    J.close();
    break;
  }
  J.close();
}

/// What the lines of one process share: the variables seen, and the
/// optimizer's steps so far, which TrainCheck's meta_vars count.
struct TcState {
  std::set<std::pair<std::string, std::string>> SeenVars;
  /// The trace records an optimizer's step() (an `apis:` site): `step`
  /// in meta_vars is then their count, as TrainCheck's is.
  bool CountSteps = false;
  uint64_t Steps = 0;
};

/// One TrainCheck line to write: at `Time`, from the `Index`th event.
struct TcLine {
  int64_t Time;
  uint32_t Index;
  enum Type : uint8_t { Pre, Post, Var } Ty;
  std::shared_ptr<const Event> E;
};

/// Each process in time order, as TrainCheck's reader expects; a post at
/// the same time as a later pre comes first (the call ended first).
bool before(const TcLine &A, const TcLine &B) {
  if (A.Time != B.Time)
    return A.Time < B.Time;
  bool APost = A.Ty == TcLine::Post, BPost = B.Ty == TcLine::Post;
  if (APost != BPost)
    return APost;
  // Posts of nested calls ending together: the inner (later) one first.
  return APost ? A.Index > B.Index : A.Index < B.Index;
}

bool isOwnArg(const SiteInfo &S, const std::string &Name) {
  return std::find(S.ArgNames.begin(), S.ArgNames.end(), Name) !=
         S.ArgNames.end();
}

/// TrainCheck's meta_vars: the context in force (epoch, step, ...),
/// without the site's own args, which go to `kwargs`; `step` the
/// optimizer's steps so far when the trace records them.
void metaVars(JsonOut &J, const SiteInfo &S, const Event &E,
              const TcState &St) {
  J.open();
  for (const auto &KV : *E.A)
    if (!isOwnArg(S, KV.first) && !(St.CountSteps && KV.first == "step"))
      J.key(KV.first).value(KV.second);
  if (St.CountSteps)
    J.key("step").num(St.Steps);
  J.close();
}

/// A region's own args (`args:` of its probe), typed, by name.
void ownArgs(JsonOut &J, const SiteInfo &S, const Event &E) {
  J.open();
  for (const auto &KV : *E.A)
    if (isOwnArg(S, KV.first)) {
      J.key(KV.first);
      tcValue(J, KV.second);
    }
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

/// An API call record (a watch of an `Api` site whose value is
/// {phase, call, args} or {phase, call, ret}) as TrainCheck's
/// function_wrapper writes its pre and post records.
void apiRecord(JsonOut &J, const Trace &T, const Event &E, const SiteInfo &S,
               int64_t Time, TcState &St) {
  std::string Ph = apiPhase(E.V);
  PythonName Py = pythonName(S.Name);
  // TrainCheck counts a step before its pre record is written.
  if (Ph == "pre" && St.CountSteps && isOptimizerStep(Py.Name))
    ++St.Steps;
  char Id[48];
  char *End = fmt::format_to(Id, "{}_{}", T.Process.Pid, apiCall(E.V));
  J.key("func_call_id").str(std::string_view(Id, End - Id));
  J.key("thread_id").num(T.tid(E.Thread));
  J.key("process_id").num(T.Process.Pid);
  J.key("meta_vars");
  metaVars(J, S, E, St);
  J.key("type").str(Ph == "pre"    ? "function_call (pre)"
                    : Ph == "post" ? "function_call (post)"
                                   : "function_call (post) (exception)");
  J.key("function").str(Py.Name);
  J.key("is_bound_method").raw(Py.Bound ? "true" : "false");
  // sonde does not record the object a method is called on: the id names
  // the call site (its stable id, in 53 bits so that a double holds it
  // exactly), which the calls on one object share when made in a loop.
  J.key("obj_id");
  if (Py.Bound)
    J.num((S.StableId ? S.StableId : uint64_t(S.Id)) &
          ((uint64_t(1) << 53) - 1));
  else
    J.raw("null");
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
    // A void callee's post has no `ret`: Python's None.
    J.key("return_values");
    const Value *Ret = E.V.get("ret");
    tcValue(J, Ret ? *Ret : Value());
  } else {
    // The runtime sees that an exception left the call, not which one.
    J.key("exception").str("unknown");
    J.key("exception_msg").str("");
  }
  J.key("time").num(Time);
  J.key("sonde").open();
  if (Py.Mapped)
    J.key("cxx").str(S.Name);
  J.key("func").str(S.Function);
  J.key("file").str(S.File);
  J.key("line").num(static_cast<uint64_t>(S.Line));
  J.close();
}

/// A model-state record (a `State` site: one watch per parameter) as a
/// TrainCheck variable record of a torch.nn.Parameter: its attributes are
/// what convert_var_to_dict dumps (data as stats or hash, grad, dtype,
/// shape, requires_grad).
void stateRecord(JsonOut &J, const Trace &T, const Event &E, const SiteInfo &S,
                 const std::string &Name, bool New, int64_t Time,
                 const TcState &St) {
  const Value &V = E.V;
  J.key("var_name").str(Name);
  J.key("var_type").str("torch.nn.Parameter");
  J.key("mode").str(New ? "new" : "update");
  J.key("dump_loc").str(S.Function);
  J.key("process_id").num(T.Process.Pid);
  J.key("thread_id").num(T.tid(E.Thread));
  J.key("time").num(Time);
  J.key("meta_vars");
  metaVars(J, S, E, St);
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

/// One line of TrainCheck's trace: an API call's pre or post record, a
/// state or variable record, or a region as a call.
static void writeLine(JsonOut &J, const Trace &T, const ProcessInfo &P,
                      const Event &E, const TcLine &L, TcState &St) {
  const SiteInfo &S = T.site(E.Site);
  J.open();
  if (S.Kind == SiteKind::Api && E.Kind == EventKind::Watch) {
    apiRecord(J, T, E, S, L.Time, St);
  } else if (S.Kind == SiteKind::State && E.V.K == Value::Kind::Object) {
    const Value *Param = E.V.get("param");
    std::string Name = Param ? Param->str() : S.Name;
    bool New = St.SeenVars.emplace(Name, S.Name).second;
    stateRecord(J, T, E, S, Name, New, L.Time, St);
  } else if (L.Ty == TcLine::Var) {
    bool New = St.SeenVars.emplace(S.Name, S.Function).second;
    J.key("var_name").str(S.Name);
    J.key("var_type").str(S.Type.empty() ? "unknown" : S.Type);
    J.key("mode").str(New ? "new" : "update");
    J.key("dump_loc").str(S.Function);
    J.key("process_id").num(P.Pid);
    J.key("thread_id").num(T.tid(E.Thread));
    J.key("time").num(L.Time);
    J.key("meta_vars");
    metaVars(J, S, E, St);
    J.key("attributes");
    attributes(J, E.V);
    J.key("type").str("state_change");
  } else {
    // "r": never the id of an API call (<pid>_<call>) of this process.
    char Id[48];
    char *End = fmt::format_to(Id, "{}_r{}", P.Pid, L.Index);
    J.key("func_call_id").str(std::string_view(Id, End - Id));
    J.key("thread_id").num(T.tid(E.Thread));
    J.key("process_id").num(P.Pid);
    J.key("meta_vars");
    metaVars(J, S, E, St);
    J.key("type").str(L.Ty == TcLine::Pre ? "function_call (pre)"
                                          : "function_call (post)");
    J.key("function").str(S.Name);
    J.key("is_bound_method").raw("false");
    J.key("obj_id").raw("null");
    if (L.Ty == TcLine::Pre) {
      // A region's args have names, not places: keyword arguments.
      J.key("args").raw("{}");
      J.key("kwargs");
      ownArgs(J, S, E);
    } else {
      J.key("return_values");
      tcValue(J, Value());
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

void exportTraincheck(const std::vector<Trace> &Traces, std::FILE *Out) {
  JsonOut J(Out);
  for (const Trace &T : Traces) {
    const ProcessInfo &P = T.Process;
    // Lines wait in a heap until the events, which come in time order,
    // pass them: what waits is the posts of the calls still open.
    auto After = [](const TcLine &A, const TcLine &B) { return before(B, A); };
    std::priority_queue<TcLine, std::vector<TcLine>, decltype(After)> Waiting(
        After);
    TcState St;
    for (const SiteInfo &S : T.Sites)
      St.CountSteps |=
          S.Kind == SiteKind::Api && isOptimizerStep(pythonName(S.Name).Name);
    auto Write = [&](const TcLine &L) { writeLine(J, T, P, *L.E, L, St); };
    uint32_t I = 0;
    for (const Event &Ev : events(T)) {
      while (!Waiting.empty() && Waiting.top().Time < Ev.Ts) {
        Write(Waiting.top());
        Waiting.pop();
      }
      if (Ev.Kind == EventKind::Instant) { // no TrainCheck line
        ++I;
        continue;
      }
      auto E = std::make_shared<const Event>(Ev);
      if (E->Kind == EventKind::Region) {
        Waiting.push({E->Ts, I, TcLine::Pre, E});
        // An unfinished region is a call without its post record, which
        // TrainCheck reads as an incomplete call.
        if (!E->Unfinished)
          Waiting.push({E->Ts + E->Dur, I, TcLine::Post, E});
      } else {
        bool Api = T.site(E->Site).Kind == SiteKind::Api;
        Waiting.push({E->Ts, I,
                      !Api                      ? TcLine::Var
                      : apiPhase(E->V) == "pre" ? TcLine::Pre
                                                : TcLine::Post,
                      E});
      }
      ++I;
    }
    for (; !Waiting.empty(); Waiting.pop())
      Write(Waiting.top());
  }
}

} // namespace sonde::trace
