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

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

namespace sonde::trace {
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
    for (const Event &E : events(T)) {
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
