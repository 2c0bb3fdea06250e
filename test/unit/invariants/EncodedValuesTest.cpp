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

#include "TraceFormat.h"
#include "invariants/Invariants.h"
#include "reader/ValueDecode.h"
#include "sonde/trace.h"

#include "../runtime/FuzzCorpus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
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

/// How a stream keeps structured values: decoded, encoded (a copy of
/// their bytes each), or encoded in place (pointing into the file's bytes,
/// which the values keep alive).
enum class Keep { Decoded, Encoded, InPlace };

/// Every event of the trace, streamed, as text: its value, args and flat
/// nodes.
std::vector<std::string> events(const std::string &Bytes, Keep How,
                                size_t &Structured) {
  // Bytes of their own, dropped here once the stream is open: in place,
  // the values alone keep them alive.
  auto Own = std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
  TraceStream S;
  std::string Error;
  std::vector<std::string> Out;
  if (!S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true,
                   How == Keep::InPlace ? Own : nullptr))
    return {"not a trace: " + Error};
  S.setWalkThread(TraceStream::WalkThread::Never);
  S.setEncodedValues(How != Keep::Decoded);
  if (How == Keep::InPlace)
    Own.reset(); // kept alive by the stream and its values
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
    std::vector<std::string> Decoded = events(Bytes, Keep::Decoded, Unused);
    EXPECT_EQ(Decoded, events(Bytes, Keep::Encoded, Structured)) << Name;
    EXPECT_EQ(Decoded, events(Bytes, Keep::InPlace, Structured)) << Name;
    ++Inputs;
  }
  EXPECT_GE(Inputs, 3u);
  // Some values were kept encoded (the corpus has tensor summaries), and
  // none without the option.
  EXPECT_GT(Structured, 0u);
  EXPECT_EQ(Unused, 0u);
}

namespace {

using sonde::format::Block;
using sonde::format::Ev;
using sonde::format::Val;

std::string vi(uint64_t V) {
  char Buf[10];
  return std::string(Buf, sonde::format::putVarint(Buf, V));
}
std::string str(const std::string &S) { return vi(S.size()) + S; }
std::string tag(Val V) { return std::string(1, static_cast<char>(V)); }

/// Appends block `B` with `Payload` to a trace's bytes.
void putBlock(std::string &Bytes, Block B, const std::string &Payload) {
  Bytes += static_cast<char>(B);
  auto Len = static_cast<uint32_t>(Payload.size());
  for (int I = 0; I < 4; ++I)
    Bytes += static_cast<char>((Len >> (8 * I)) & 0xff);
  Bytes += Payload;
}

/// An encoded Array of the encoded values `Items`.
std::string arrayOf(const std::vector<std::string> &Items) {
  std::string Out = tag(Val::Array) + vi(Items.size());
  for (const std::string &V : Items)
    Out += V;
  return Out;
}

/// A trace's header (format 1.6), then its Process and Clock blocks.
std::string traceStart() {
  std::string Bytes(sonde::format::Magic, 8);
  Bytes += std::string{1, 0, 6, 0, 0, 0, 0, 0};
  putBlock(Bytes, Block::Process,
           vi(42) + vi(1) + vi(0) + str("host") + str("prog") + vi(1000000000) +
               str("boot"));
  putBlock(Bytes, Block::Clock, vi(0) + vi(1000000000) + vi(1000000000));
  return Bytes;
}

/// A trace (format 1.6) of watch site 1 on thread 0 whose one Events block
/// holds `Values`, one record each; string 1 ("k") is defined before the
/// block, string 2 ("late") after it.
std::string traceOf(const std::vector<std::string> &Values) {
  std::string Bytes = traceStart();
  auto Put = [&Bytes](Block B, const std::string &Payload) {
    putBlock(Bytes, B, Payload);
  };
  Put(Block::Site, vi(1) + static_cast<char>(sonde::SiteKind::Watch) +
                       static_cast<char>(0) + vi(1) + vi(0) + str("user") +
                       str("w") + str("f.cpp") + str("fn") + str("") + str(""));
  Put(Block::Thread, vi(0) + vi(100) + str("t"));
  Put(Block::String, vi(1) + str("k"));
  std::string Records;
  for (const std::string &V : Values)
    Records += vi(uint64_t(1) << sonde::format::EvTypeBits |
                  static_cast<uint8_t>(Ev::Watch)) +
               vi(sonde::format::zigzag(1)) + V;
  Put(Block::Events, vi(0) + vi(1000) + Records);
  Put(Block::String, vi(2) + str("late"));
  Put(Block::End, str("exit") + vi(0));
  return Bytes;
}

/// `Inner` inside `Depth` arrays of one item each.
std::string nested(int Depth, const std::string &Inner) {
  std::string Out;
  for (int I = 0; I < Depth; ++I)
    Out += tag(Val::Array) + vi(1);
  return Out + Inner;
}

} // namespace

TEST(EncodedValues, ValuesAtTheReadersLimitsReadTheSame) {
  // The reader walks a value's bytes by a fast path when nothing in it is
  // unusual and by the exact walker otherwise (ValueDecode.cpp): at the
  // limits (nesting, keys not yet defined, bytes cut), both readings and
  // the check of the records agree, and what follows is read the same.
  std::string Int7 = tag(Val::Int) + vi(sonde::format::zigzag(7));
  std::string After = tag(Val::UInt) + vi(5);
  std::vector<std::vector<std::string>> Cases;
  for (int Depth : {63, 64, 65, 66})
    Cases.push_back({nested(Depth, Int7), After});
  // An object member whose key is defined only after the block, nested in
  // an array after a good item: the check keeps the item before it.
  Cases.push_back(
      {tag(Val::Array) + vi(2) + Int7 + tag(Val::Object) + vi(1) + vi(2) + Int7,
       After});
  Cases.push_back({tag(Val::Object) + vi(1) + vi(1) + Int7, After});
  Cases.push_back({tag(Val::Object) + vi(2) + vi(1) + Int7}); // cut short
  for (size_t I = 0; I < Cases.size(); ++I) {
    std::string Bytes = traceOf(Cases[I]);
    size_t Structured = 0;
    std::vector<std::string> Decoded = events(Bytes, Keep::Decoded, Structured);
    EXPECT_EQ(Decoded, events(Bytes, Keep::Encoded, Structured))
        << "case " << I;
    EXPECT_EQ(Decoded, events(Bytes, Keep::InPlace, Structured))
        << "case " << I;
  }
  // Depth 64 is read whole; 65 is not (the reader's limit).
  size_t Unused = 0;
  std::vector<std::string> At64 =
      events(traceOf(Cases[1]), Keep::Encoded, Unused);
  ASSERT_EQ(At64.size(), 2u);
  EXPECT_NE(At64[0].find(std::string(64, '[') + "i7"), std::string::npos);
  EXPECT_EQ(At64[1].rfind("1 u5 ", 0), 0u) << At64[1];
  std::vector<std::string> At65 =
      events(traceOf(Cases[2]), Keep::Encoded, Unused);
  EXPECT_EQ(At65[0].find("i7"), std::string::npos) << At65[0];
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

TEST(EncodedValues, InPlaceValuesOutliveTheirStreamAndItsBytes) {
  // sonde check's values point into the file read whole: a value kept after
  // its stream is gone (a check's first violation) keeps the bytes alive,
  // and copies share them without an allocation each.
  std::string Obj = tag(Val::Object) + vi(1) + vi(1) + tag(Val::Array) + vi(2) +
                    tag(Val::UInt) + vi(3) + tag(Val::String) + str("s");
  std::string Bytes = traceOf({Obj, Obj});
  std::vector<Value> Kept;
  {
    auto Own =
        std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
    TraceStream S;
    std::string Error;
    ASSERT_TRUE(
        S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true, Own));
    S.setEncodedValues(true);
    Own.reset();
    while (const Event *E = S.next())
      Kept.push_back(E->V);
  }
  ASSERT_EQ(Kept.size(), 2u);
  for (const Value &V : Kept) {
    ASSERT_NE(V.encoding().Data, nullptr);
    EXPECT_EQ(V.encoding().Size, Obj.size());
    EXPECT_EQ(text(V), "{k:[u3,\"s\",],}");
    EXPECT_EQ(flatText(V), "0>4 - 6 ;1>4 k 7 ;2>3 - 3 3;3>4 - 5 s;");
  }
  // Decoded once per value, whichever copy asks.
  Value Copy = Kept[0]; // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(&Copy.members(), &Kept[0].members());
  EXPECT_EQ(Copy.get("k")->items().size(), 2u);
}

namespace {

/// The shape flatten() gave `Nodes`: what flattenAs() reads by.
std::vector<detail::ShapeNode>
shapeOf(const std::vector<detail::FlatNode> &Nodes) {
  std::vector<detail::ShapeNode> Shape;
  for (size_t I = 0; I < Nodes.size(); ++I) {
    uint32_t Count = 0;
    for (auto C = static_cast<uint32_t>(I) + 1; C < Nodes[I].End;
         C = Nodes[C].End)
      ++Count;
    Shape.push_back({Nodes[I].K, Nodes[I].End, Nodes[I].Key, Count});
  }
  return Shape;
}

bool sameShape(const std::vector<detail::ShapeNode> &A,
               const std::vector<detail::ShapeNode> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].K != B[I].K || A[I].End != B[I].End || A[I].Key != B[I].Key ||
        A[I].Count != B[I].Count)
      return false;
  return true;
}

/// Two node lists as text, keys by address (the same table's string).
std::string nodesText(const detail::FlatNode *N, size_t Count) {
  std::string Out;
  for (size_t I = 0; I < Count; ++I)
    Out += std::to_string(static_cast<int>(N[I].K)) + "/" +
           std::to_string(N[I].End) + "/" +
           std::to_string(reinterpret_cast<uintptr_t>(N[I].Key)) + "/" +
           std::to_string(N[I].TableKey) + "/" + std::to_string(N[I].U) + "/" +
           std::string(N[I].S) + ";";
  return Out;
}

} // namespace

TEST(EncodedValues, FlattenAsReadsByAShapeExactlyWhatFlattenMakes) {
  // sonde check reads a record of a known layout by its shape
  // (Feed::readKnown): against the shape of every value before it in the
  // same file, flattenAs() succeeds exactly when the shapes are the same
  // (and nothing is cut), and then makes flatten()'s nodes.
  size_t Read = 0, Refused = 0;
  // The corpus, and values that differ from each other by one thing each.
  std::string I7 = tag(Val::Int) + vi(sonde::format::zigzag(7));
  std::string U7 = tag(Val::UInt) + vi(7);
  std::string F = tag(Val::Float) + std::string(8, '\x01');
  std::string Ab = tag(Val::String) + str("ab");
  auto Obj = [](const std::vector<std::string> &Members) {
    std::string Out = tag(Val::Object) + vi(Members.size());
    for (const std::string &M : Members)
      Out += vi(1) + M; // key "k"
    return Out;
  };
  std::vector<std::pair<std::string, std::string>> Inputs = fuzzTraceCorpus();
  Inputs.push_back(
      {"shapes",
       traceOf(
           {Obj({I7, Ab, arrayOf({I7, F})}), Obj({I7, Ab, arrayOf({I7, F})}),
            Obj({I7, str("cd").insert(0, tag(Val::String)), arrayOf({I7, F})}),
            Obj({U7, Ab, arrayOf({I7, F})}), Obj({I7, Ab, arrayOf({I7, F, F})}),
            Obj({I7, Ab, arrayOf({I7})}), Obj({I7, Ab}), Obj({I7, Ab, I7}),
            arrayOf({I7, Ab, arrayOf({I7, F})}), Obj({I7, Ab, Obj({I7, F})}),
            Obj({tag(Val::True), Ab, arrayOf({I7, F})}),
            Obj({tag(Val::Null), Ab, arrayOf({I7, F})}),
            // Read by the other's shape, node by node, each of these
            // two would pass for the other (a False tag is 1, the id of
            // "k"): only their counts tell them apart.
            Obj({arrayOf({I7}), I7}), Obj({arrayOf({I7, tag(Val::False), I7})}),
            Obj({arrayOf({I7}), I7})})});
  for (const auto &[Name, Bytes] : Inputs) {
    auto Own =
        std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
    TraceStream S;
    std::string Error;
    if (!S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true, Own))
      continue;
    S.setWalkThread(TraceStream::WalkThread::Never);
    S.setEncodedValues(true);
    // Each shape with its nodes, reused from value to value as the Feed
    // reuses a layout's: a read that failed part way leaves values behind.
    struct Known {
      std::vector<detail::ShapeNode> Shape;
      std::vector<detail::FlatNode> Nodes;
    };
    std::vector<Known> Seen;
    std::vector<Value> Keep; // the shapes' keys live in the values' table
    while (const Event *E = S.next()) {
      Value::Encoding Enc = E->V.encoding();
      if (!Enc.Data)
        continue;
      std::vector<detail::FlatNode> Nodes;
      detail::flatten(E->V, Nodes);
      std::vector<detail::ShapeNode> Shape = shapeOf(Nodes);
      bool Cut = false;
      for (const detail::FlatNode &N : Nodes)
        Cut |= N.K == Value::Kind::Truncated;
      Seen.push_back({Shape, {}});
      detail::shapeNodes(Shape.data(), Shape.size(), Seen.back().Nodes);
      Keep.push_back(E->V);
      for (Known &Other : Seen) {
        std::vector<detail::FlatNode> &Out = Other.Nodes;
        bool Ok = detail::flattenAs(Enc, Other.Shape.data(), Other.Shape.size(),
                                    Out.data());
        ASSERT_EQ(Ok, !Cut && sameShape(Other.Shape, Shape)) << Name;
        if (Ok)
          EXPECT_EQ(nodesText(Out.data(), Out.size()),
                    nodesText(Nodes.data(), Nodes.size()))
              << Name;
        (Ok ? Read : Refused)++;
      }
      if (Seen.size() > 16) // the last 16 shapes: enough, and quadratic
        Seen.erase(Seen.begin());
    }
  }
  EXPECT_GT(Read, 0u);
  EXPECT_GT(Refused, 0u);
}

namespace {

/// A trace (format 1.6) of a training loop's records as `sonde check` sees
/// them: `Steps` steps, each with a model state record per parameter (site
/// 1) and an API call's pre and post records (site 2), values kept encoded.
/// With `Bug`: p1's hash stays the same at step 10, p2 turns float16 at
/// step 12, and from step 15 on p0 has another shape (a new layout).
std::string stepsTrace(bool Bug, int Steps = 20) {
  std::string Bytes = traceStart();
  auto Put = [&Bytes](Block B, const std::string &Payload) {
    putBlock(Bytes, B, Payload);
  };
  auto Site = [](uint32_t Id, sonde::SiteKind K, const std::string &Name) {
    return vi(Id) + static_cast<char>(K) + static_cast<char>(0) + vi(Id) +
           vi(0) + str("user") + str(Name) + str("f.cpp") + str("train") +
           str("") + str("");
  };
  Put(Block::Site, Site(1, sonde::SiteKind::State, "model"));
  Put(Block::Site, Site(2, sonde::SiteKind::Api, "f"));
  Put(Block::Thread, vi(0) + vi(100) + str("t"));
  const char *Keys[] = {"param", "dtype", "shape", "hash", "norm",
                        "phase", "call",  "args",  "ret"};
  for (uint64_t K = 0; K < 9; ++K)
    Put(Block::String, vi(K + 1) + str(Keys[K]));
  auto S = [](const std::string &X) { return tag(Val::String) + str(X); };
  auto I = [](int64_t X) {
    return tag(Val::Int) + vi(sonde::format::zigzag(X));
  };
  auto F = [](double X) {
    char B[8];
    std::memcpy(B, &X, 8);
    return tag(Val::Float) + std::string(B, 8);
  };
  auto Obj = [](const std::vector<std::pair<uint64_t, std::string>> &M) {
    std::string Out = tag(Val::Object) + vi(M.size());
    for (const auto &[Key, V] : M)
      Out += vi(Key) + V;
    return Out;
  };
  auto Watch = [](uint32_t SiteId, const std::string &V) {
    return vi(uint64_t(SiteId) << sonde::format::EvTypeBits |
              static_cast<uint8_t>(Ev::Watch)) +
           vi(sonde::format::zigzag(1000)) + V;
  };
  std::string Records;
  for (int Step = 0; Step < Steps; ++Step) {
    Records += Watch(
        2, Obj({{6, S("pre")},
                {7, I(Step)},
                {8, arrayOf({Obj({{4, S("a" + std::to_string(Step))}})})}}));
    Records += Watch(2, Obj({{6, S("post")},
                             {7, I(Step)},
                             {9, Obj({{4, S("r" + std::to_string(Step))}})}}));
    for (int P = 0; P < 3; ++P) {
      int HashStep = Bug && P == 1 && Step == 10 ? 9 : Step;
      std::string Shape = arrayOf({I(2), I(3 + P)});
      if (Bug && P == 0 && Step >= 15)
        Shape = arrayOf({I(2), I(3), I(1)});
      Records += Watch(
          1,
          Obj({{1, S("p" + std::to_string(P))},
               {2, S(Bug && P == 2 && Step == 12 ? "float16" : "float32")},
               {3, Shape},
               {4, S("h" + std::to_string(HashStep) + "_" + std::to_string(P))},
               {5, F(1.0 + 0.01 * Step + P)}}));
    }
  }
  Put(Block::Events, vi(0) + vi(1000) + Records);
  Put(Block::End, str("exit") + vi(0));
  return Bytes;
}

/// Feeds every event of `Bytes` to `Each(trace, event)`, its structured
/// values kept encoded in place and checked as read (as `sonde check`
/// reads a file: numbered by structure, Value::Encoding::Shape) or not.
template <class Fn>
void eachEvent(const std::string &Bytes, bool Encoded, Fn Each) {
  auto Own = std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
  TraceStream S;
  std::string Error;
  ASSERT_TRUE(S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true,
                          Encoded ? Own : nullptr, /*CheckAsRead=*/Encoded))
      << Error;
  S.setWalkThread(TraceStream::WalkThread::Never);
  S.setEncodedValues(Encoded);
  while (const Event *E = S.next())
    Each(S.trace(), *E);
}

} // namespace

TEST(EncodedValues, ValuesOfOneStructureNumberHaveOneStructure) {
  // The one walk (CheckAsRead) checks a structured value by a skeleton of
  // its site's and gives it that skeleton's number (Encoding::Shape); the
  // Feed reads a value of a number it read by a shape with readByShape(),
  // which checks nothing. So values of one number have one structure
  // (kinds, keys, counts), and readByShape() makes flatten()'s
  // nodes for each of them, reading each whole. An exact number
  // (Encoding::ShapeExact) also keeps each string's and integer's length:
  // readAtPlaces(), at the places of the first value's payloads, makes
  // them too (the steps' strings and step counters change length).
  std::vector<std::pair<std::string, std::string>> Inputs = fuzzTraceCorpus();
  Inputs.push_back({"steps", stepsTrace(true)});
  size_t Numbered = 0, Again = 0, AgainExact = 0;
  for (const auto &[Name, Bytes] : Inputs) {
    auto Own =
        std::make_shared<std::vector<uint8_t>>(Bytes.begin(), Bytes.end());
    TraceStream S;
    std::string Error;
    if (!S.openBytes(Own->data(), Own->size(), "t.sonde", Error, true, Own,
                     /*CheckAsRead=*/true))
      continue;
    S.setEncodedValues(true);
    std::map<uint32_t, std::vector<detail::ShapeNode>> ByNumber;
    std::map<uint32_t, std::vector<detail::PayloadPlace>> PlacesOf;
    std::vector<Value> Keep; // the shapes' keys live in the values' table
    while (const Event *E = S.next()) {
      Value::Encoding Enc = E->V.encoding();
      if (!Enc.Data || !Enc.Shape)
        continue;
      ++Numbered;
      Keep.push_back(E->V);
      std::vector<detail::FlatNode> Nodes;
      detail::flatten(E->V, Nodes);
      std::vector<detail::ShapeNode> Shape = shapeOf(Nodes);
      auto It = ByNumber.find(Enc.Shape);
      if (It == ByNumber.end()) {
        std::vector<detail::FlatNode> Out;
        detail::shapeNodes(Shape.data(), Shape.size(), Out);
        ASSERT_TRUE(
            detail::flattenAs(Enc, Shape.data(), Shape.size(), Out.data()))
            << Name;
        ByNumber[Enc.Shape] = Shape;
        if (Enc.ShapeExact)
          ASSERT_TRUE(detail::payloadPlaces(Enc, Shape.data(), Shape.size(),
                                            Out.data(), PlacesOf[Enc.Shape]))
              << Name;
        continue;
      }
      ++Again;
      const std::vector<detail::ShapeNode> &First = It->second;
      ASSERT_TRUE(sameShape(First, Shape)) << Name << ", " << Enc.Shape;
      std::vector<detail::FlatNode> Out;
      detail::shapeNodes(First.data(), First.size(), Out);
      // It reads the whole value, and no further.
      EXPECT_EQ(
          detail::readByShape(Enc, First.data(), First.size(), Out.data()),
          Enc.Data + Enc.Size)
          << Name;
      EXPECT_EQ(nodesText(Out.data(), Out.size()),
                nodesText(Nodes.data(), Nodes.size()))
          << Name;
      ASSERT_EQ(Enc.ShapeExact, PlacesOf.count(Enc.Shape) == 1) << Name;
      if (!Enc.ShapeExact)
        continue;
      ++AgainExact;
      std::vector<detail::FlatNode> AtPlaces;
      detail::shapeNodes(First.data(), First.size(), AtPlaces);
      detail::readAtPlaces(Enc, PlacesOf[Enc.Shape], AtPlaces.data());
      EXPECT_EQ(nodesText(AtPlaces.data(), AtPlaces.size()),
                nodesText(Nodes.data(), Nodes.size()))
          << Name;
    }
  }
  EXPECT_GT(Numbered, 0u);
  EXPECT_GT(Again, 50u); // the steps' records: 100 values, four structures
  EXPECT_GT(AgainExact, 30u);
}

TEST(EncodedValues, ChecksOfRecordsReadByShapeReportWhatDecodedOnesDo) {
  // sonde check reads most records by their layout's shape
  // (Feed::readKnown), which only values kept encoded allow: a check of the
  // same trace with its values decoded takes the old path for every
  // record, and must report exactly the same.
  inv::Inferrer Learn;
  eachEvent(stepsTrace(false), false,
            [&](const Trace &T, const Event &E) { Learn.observe(T, E); });
  Learn.endTrace();
  std::vector<inv::Invariant> Invariants = Learn.finish();
  ASSERT_GE(Invariants.size(), 4u);
  auto Report = [&](const std::string &Bytes, bool Encoded) {
    inv::Checker Check(Invariants);
    eachEvent(Bytes, Encoded,
              [&](const Trace &T, const Event &E) { Check.observe(T, E); });
    Check.endTrace();
    inv::CheckReport R = Check.finish();
    std::string Out = std::to_string(R.Records) + " records\n";
    for (const inv::Violation &V : R.Violations)
      Out += V.Inv->Text + " x" + std::to_string(V.Count) + " at " +
             std::to_string(V.First.Ts) + ": " + V.First.Detail + "\n";
    return std::make_pair(Out, R.Violations.size());
  };
  for (bool Bug : {false, true}) {
    std::string Bytes = stepsTrace(Bug);
    auto [Decoded, N] = Report(Bytes, false);
    EXPECT_EQ(Report(Bytes, true).first, Decoded) << "bug " << Bug;
    if (Bug) // the three bugs broke something: the comparison says something
      EXPECT_GE(N, 3u) << Decoded;
    else
      EXPECT_EQ(N, 0u) << Decoded;
  }
}
