//===- EncodedValuesTest.cpp - Values kept encoded read the same ----------===//
//
// `sonde check` reads traces with TraceStream::setEncodedValues: objects and
// arrays stay in the file's encoding, decoded on first use or walked as
// flat nodes by the invariants' Feed (reader/ValueDecode.h). On every input
// of the fuzzer's corpus (real traces, torn ones, reproducers of reader
// bugs), each event's value and args read through Value's accessors, and
// their flat nodes, are the same with and without it.
//
//===----------------------------------------------------------------------===//

#include "reader/ValueDecode.h"
#include "sonde/trace.h"

#include "../runtime/FuzzCorpus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace sonde::trace;

namespace {

/// A value as text, through Value's accessors only.
std::string text(const Value &V) {
  char Buf[64];
  switch (V.K) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return V.B ? "true" : "false";
  case Value::Kind::Int:
    return "i" + std::to_string(V.I);
  case Value::Kind::UInt:
    return "u" + std::to_string(V.U);
  case Value::Kind::Float:
    std::snprintf(Buf, sizeof(Buf), "f%.17g", V.F);
    return Buf;
  case Value::Kind::String:
    return "\"" + V.str() + "\"";
  case Value::Kind::Object: {
    std::string Out = "{";
    for (const auto &[K, M] : V.members())
      Out += K + ":" + text(M) + ",";
    return Out + "}";
  }
  case Value::Kind::Array: {
    std::string Out = "[";
    for (const Value &I : V.items())
      Out += text(I) + ",";
    return Out + "]";
  }
  case Value::Kind::Truncated:
    return "...";
  }
  return "?";
}

/// The flat nodes of a value as text.
std::string flatText(const Value &V) {
  std::vector<detail::FlatNode> Nodes;
  detail::flatten(V, Nodes);
  std::string Out;
  for (size_t I = 0; I < Nodes.size(); ++I) {
    const detail::FlatNode &N = Nodes[I];
    Out += std::to_string(I) + ">" + std::to_string(N.End) + " " +
           (N.Key ? *N.Key : "-") + " " +
           std::to_string(static_cast<int>(N.K)) + " ";
    if (N.K == Value::Kind::String)
      Out += std::string(N.S);
    else if (N.K == Value::Kind::Bool)
      Out += N.B ? "1" : "0";
    else if (N.K != Value::Kind::Object && N.K != Value::Kind::Array)
      Out += std::to_string(N.U);
    Out += ";";
  }
  return Out;
}

/// Every event of the trace, streamed, as text: its value, args and flat
/// nodes.
std::vector<std::string> events(const std::string &Bytes, bool Encoded,
                                size_t &Structured) {
  TraceStream S;
  std::string Error;
  std::vector<std::string> Out;
  if (!S.openBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                   Bytes.size(), "t.sonde", Error))
    return {"not a trace: " + Error};
  S.setWalkThread(TraceStream::WalkThread::Never);
  S.setEncodedValues(Encoded);
  while (const Event *E = S.next()) {
    std::string Line = std::to_string(E->Site) + " " + text(E->V) + " |" +
                       flatText(E->V) + "|";
    Structured += E->V.encoding().Data != nullptr;
    for (const auto &[K, V] : *E->A)
      Line += " " + K + "=" + text(V) + "/" + flatText(V);
    Out.push_back(std::move(Line));
  }
  return Out;
}

} // namespace

TEST(EncodedValues, ReadTheSameOnEveryCorpusInput) {
  size_t Inputs = 0, Structured = 0, Unused = 0;
  for (const auto &[Name, Bytes] : fuzzTraceCorpus()) {
    EXPECT_EQ(events(Bytes, false, Unused), events(Bytes, true, Structured))
        << Name;
    ++Inputs;
  }
  EXPECT_GE(Inputs, 3u);
  // Some values were kept encoded (the corpus has tensor summaries), and
  // none without the option.
  EXPECT_GT(Structured, 0u);
  EXPECT_EQ(Unused, 0u);
}

TEST(EncodedValues, DecodedOnceAndSharedByCopies) {
  Value Inner = Value::array({Value::string("a"), Value()});
  Value V = Value::object({{"x", Inner}, {"y", Value::string("b")}});
  // The copy is what is tested: it shares the decoded members.
  Value Copy = V; // NOLINT(performance-unnecessary-copy-initialization)
  ASSERT_EQ(V.members().size(), 2u);
  EXPECT_EQ(&V.members(), &Copy.members());
  EXPECT_EQ(V.get("y")->str(), "b");
  EXPECT_EQ(V.get("z"), nullptr);
  // A value built in memory has no encoding; its flat nodes are still made.
  EXPECT_EQ(V.encoding().Data, nullptr);
  EXPECT_EQ(flatText(V), "0>5 - 6 ;1>4 x 7 ;2>3 - 5 a;3>4 - 0 0;4>5 y 5 b;");
}
