//===- Csv.cpp - The CSV export of watched values -------------------------===//
//
// `sonde export --format csv`: the watches as CSV (RFC 4180 quoting), one
// row per watch record (not API call records): the fixed columns, a column
// per context arg, then `value` and one column per member of structured
// values (tensor summaries: value.mean, value.shape...).
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "ExportCommon.h"
#include "Json.h"

#include "TextOut.h"

#include <cmath>
#include <set>

namespace sonde::trace {
namespace {

/// A field as RFC 4180 writes it: quoted, with its quotes doubled, when it
/// holds a comma, a quote or a line break. Every field goes through here.
void csvField(TextOut &Out, std::string_view S) {
  if (S.find_first_of(",\"\r\n") == std::string_view::npos) {
    Out.raw(S);
    return;
  }
  Out.put('"');
  for (size_t Quote; (Quote = S.find('"')) != std::string_view::npos;) {
    Out.raw(S.substr(0, Quote + 1)).put('"');
    S.remove_prefix(Quote + 1);
  }
  Out.raw(S).put('"');
}

/// A value as one CSV cell: numbers and strings plainly, structures as
/// compact JSON (formatted in `Scratch`, then quoted).
void cell(TextOut &Out, const Value &V, TextOut &Scratch) {
  switch (V.K) {
  case Value::Kind::Null:
    return;
  case Value::Kind::String:
    csvField(Out, V.str());
    return;
  // Numbers and booleans never need quotes.
  case Value::Kind::Bool:
  case Value::Kind::Int:
  case Value::Kind::UInt:
  case Value::Kind::Float: {
    JsonOut J(Out);
    if (V.K != Value::Kind::Float || std::isfinite(V.F))
      J.value(V);
    else // the JSON writer quotes these
      Out.raw(std::isnan(V.F) ? "NaN" : V.F > 0 ? "Infinity" : "-Infinity");
    return;
  }
  default: {
    Scratch.buffer().clear();
    JsonOut J(Scratch);
    J.value(V);
    const fmt::memory_buffer &B = Scratch.buffer();
    csvField(Out, std::string_view(B.data(), B.size()));
    return;
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
    return E.Kind == EventKind::Watch && T.site(E.Site).Kind != SiteKind::Api;
  };
  for (const Trace &T : Traces)
    for (const Event &E : events(T)) {
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
  TextOut Text(Out), Scratch(nullptr);
  Text.raw("time_ns,pid,rank,tid,name,func,file,line");
  for (const std::string &A : ArgCols)
    csvField(Text.put(','), A);
  Text.raw(",value");
  for (const std::string &V : ValueCols)
    csvField(Text.put(','), "value." + V);
  Text.raw("\r\n");
  for (const Trace &T : Traces)
    for (const Event &E : events(T)) {
      if (!IsValue(T, E))
        continue;
      const SiteInfo &S = T.site(E.Site);
      Text.print("{},{},{},{},", E.Ts, T.Process.Pid, T.Process.Rank,
                 T.tid(E.Thread));
      csvField(Text, S.Name);
      csvField(Text.put(','), S.Function);
      csvField(Text.put(','), S.File);
      Text.print(",{}", S.Line);
      for (const std::string &A : ArgCols) {
        Text.put(',');
        for (const auto &KV : *E.A)
          if (KV.first == A) {
            cell(Text, KV.second, Scratch);
            break;
          }
      }
      Text.put(',');
      if (E.V.K != Value::Kind::Object)
        cell(Text, E.V, Scratch);
      for (const std::string &V : ValueCols) {
        Text.put(',');
        if (E.V.K == Value::Kind::Object)
          if (const Value *M = E.V.get(V))
            cell(Text, *M, Scratch);
      }
      Text.raw("\r\n");
    }
}

} // namespace sonde::trace
