//===- PlanWire.cpp - A plan through a pipe -------------------------------===//
//
// See PlanWire.h. Every field of rewriter::Plan and frontdoor::PlanResult
// is written in declaration order; a message starts with a magic number and
// ends with another, so that a child that died half-way is noticed.
//
//===----------------------------------------------------------------------===//

#include "PlanWire.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

using namespace llvm;

namespace sonde {
namespace plugin {

namespace {

constexpr uint32_t Begin = 0x534f4e44; // "SOND"
constexpr uint32_t End = 0x454e4421;   // "END!"

class Writer {
public:
  template <typename T> void num(T V) {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    Out.append(reinterpret_cast<const char *>(&V), sizeof(V));
  }
  void str(StringRef S) {
    num<uint64_t>(S.size());
    Out.append(S.data(), S.size());
  }
  template <typename T, typename F> void list(const std::vector<T> &V, F Put) {
    num<uint64_t>(V.size());
    for (const T &E : V)
      Put(E);
  }
  std::string Out;
};

class Reader {
public:
  explicit Reader(StringRef In) : In(In) {}
  template <typename T> void num(T &V) {
    if (!take(sizeof(V)))
      return;
    std::memcpy(&V, In.data() + Pos - sizeof(V), sizeof(V));
  }
  void str(std::string &S) {
    uint64_t N = 0;
    num(N);
    if (take(N))
      S.assign(In.data() + Pos - N, N);
  }
  template <typename T, typename F> void list(std::vector<T> &V, F Get) {
    uint64_t N = 0;
    num(N);
    // Each element takes at least a byte: a bad count fails here, not in
    // an allocation.
    if (N > In.size() - Pos) {
      Bad = true;
      return;
    }
    V.resize(N);
    for (T &E : V)
      Get(E);
  }
  bool ok() const { return !Bad && Pos == In.size(); }

private:
  bool take(uint64_t N) {
    if (Bad || N > In.size() - Pos) {
      Bad = true;
      return false;
    }
    Pos += N;
    return true;
  }
  StringRef In;
  uint64_t Pos = 0;
  bool Bad = false;
};

/// One description of every field, for both directions: `IO` is a Writer
/// or a Reader, `Q` a const or mutable PlanResult.
template <typename IO, typename Q> void fields(IO &W, Q &R) {
  auto Loc = [&](auto &L) {
    W.num(L.Line);
    W.num(L.Col);
  };
  W.num(R.SourceErrors);
  W.list(R.Errors, [&](auto &E) { W.str(E); });
  bool HasPlan = R.P.has_value();
  W.num(HasPlan);
  if constexpr (!std::is_const_v<Q>)
    if (HasPlan)
      R.P.emplace();
  if (!HasPlan)
    return;
  auto &P = *R.P;
  W.str(P.File);
  W.list(P.Sites, [&](auto &S) {
    W.num(S.Id);
    W.str(S.Kind);
    W.str(S.Category);
    W.str(S.Name);
    W.str(S.File);
    W.num(S.Line);
    W.str(S.Function);
    W.str(S.Watched);
    W.str(S.Args);
    W.str(S.Type);
    W.num(S.Flags);
    W.num(S.ProbeIndex);
    W.str(S.Selector);
  });
  W.list(P.Insertions, [&](auto &I) {
    W.num(I.Offset);
    W.num(I.Rank);
    W.num(I.Seq);
    W.str(I.Text);
  });
  W.list(P.SpecCode, [&](auto &C) {
    W.num(C.InsertionIndex);
    W.num(C.Begin);
    W.num(C.End);
    Loc(C.Loc);
    W.num(C.ProbeIndex);
  });
  W.list(P.Notes, [&](auto &N) {
    W.num(N.Lvl);
    W.str(N.File);
    W.num(N.Line);
    W.num(N.Col);
    W.str(N.Message);
    W.str(N.Flag);
    W.num(N.RawLoc);
  });
  W.list(P.SpecErrors, [&](auto &N) {
    Loc(N.Loc);
    W.num(N.Length);
    W.str(N.Message);
    W.num(N.ProbeIndex);
  });
  W.list(P.MatchCounts, [&](auto &C) { W.num(C); });
  W.list(P.HostNames, [&](auto &N) { W.str(N); });
  W.list(P.RuntimeHeaders, [&](auto &H) { W.str(H); });
}

} // namespace

std::string encodePlanResult(const frontdoor::PlanResult &R) {
  Writer W;
  W.num(Begin);
  fields(W, R);
  W.num(End);
  return std::move(W.Out);
}

std::optional<frontdoor::PlanResult> decodePlanResult(StringRef Bytes) {
  Reader Rd(Bytes);
  uint32_t Magic = 0, Tail = 0;
  Rd.num(Magic);
  if (Magic != Begin)
    return std::nullopt;
  frontdoor::PlanResult R;
  fields(Rd, R);
  Rd.num(Tail);
  if (!Rd.ok() || Tail != End)
    return std::nullopt;
  return R;
}

} // namespace plugin
} // namespace sonde
