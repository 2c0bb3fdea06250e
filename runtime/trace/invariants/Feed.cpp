//===- Feed.cpp - Events in order, as scopes and value streams ------------===//
//
// The one pass over a trace that inference and checking share (Feed.h):
// regions become scope iterations, values become stream points. Both sides
// see exactly the same keys, so what infer names, check finds.
//
//===----------------------------------------------------------------------===//

#include "Feed.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sonde::trace::inv {

Sink::~Sink() = default;

std::string shortFile(const std::string &File) {
  size_t Slash = File.find_last_of('/');
  return Slash == std::string::npos ? File : File.substr(Slash + 1);
}

std::string shortestDouble(double X) {
  char Buf[40];
  // The shortest of %.15g..%.17g that reads back as the same double.
  for (int Digits = 15; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, X);
    if (std::strtod(Buf, nullptr) == X || std::isnan(X))
      break;
  }
  return Buf;
}

std::string Scalar::text() const {
  switch (K) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return N != 0 ? "true" : "false";
  case Kind::Int:
    // Integers up to 2^53 are exact in N; a 64-bit id beyond is rounded
    // alike in every record, so equal stays equal.
    if (N > -9e18 && N < 9e18)
      return std::to_string(static_cast<int64_t>(N));
    return shortestDouble(N);
  case Kind::Float:
    return shortestDouble(N);
  case Kind::Str:
    return S;
  }
  return "";
}

namespace {

bool scalarOf(const Value &V, Scalar &Out) {
  switch (V.K) {
  case Value::Kind::Bool:
    Out.K = Scalar::Kind::Bool;
    Out.N = V.B ? 1 : 0;
    return true;
  case Value::Kind::Int:
    Out.K = Scalar::Kind::Int;
    Out.N = static_cast<double>(V.I);
    return true;
  case Value::Kind::UInt:
    Out.K = Scalar::Kind::Int;
    Out.N = static_cast<double>(V.U);
    return true;
  case Value::Kind::Float:
    Out.K = Scalar::Kind::Float;
    Out.N = V.F;
    return true;
  case Value::Kind::String:
    Out.K = Scalar::Kind::Str;
    Out.S = V.str();
    return true;
  default:
    return false;
  }
}

bool isScalar(const Value &V) {
  switch (V.K) {
  case Value::Kind::Bool:
  case Value::Kind::Int:
  case Value::Kind::UInt:
  case Value::Kind::Float:
  case Value::Kind::String:
    return true;
  default:
    return false;
  }
}

/// An array of scalars (a shape) as one text value: `[64,1,28,28]`.
bool arrayText(const Value &V, std::string &Out) {
  Out.assign(1, '[');
  for (const Value &I : V.items()) {
    Scalar S;
    if (!scalarOf(I, S))
      return false;
    if (Out.size() > 1)
      Out += ",";
    Out += S.text();
  }
  Out += "]";
  return true;
}

} // namespace

Feed::Feed(std::vector<Sink *> S, bool N) : Sinks(std::move(S)), Nesting(N) {}

std::string Feed::siteKey(const SiteInfo &S) {
  return S.Category + "/" + S.Name + " in " + S.Function + " at " +
         shortFile(S.File) + ":" + std::to_string(S.Line);
}

void Feed::onlyStreamsOf(std::vector<std::string> S) {
  Filter = true;
  Subjects = std::move(S);
  std::sort(Subjects.begin(), Subjects.end());
}

bool Feed::streamed(uint32_t Site) {
  if (!Filter)
    return true;
  if (Site >= Streamed.size())
    Streamed.resize(Names.size(), -1);
  if (Streamed[Site] < 0) {
    // A subject is the site's key, or the key, a space and a path. A space
    // sorts before any other character of a key, so such a subject comes
    // first among those not below the key.
    const std::string &Key = Names[Site];
    auto It = std::lower_bound(Subjects.begin(), Subjects.end(), Key);
    Streamed[Site] = It != Subjects.end() &&
                     It->compare(0, Key.size(), Key) == 0 &&
                     (It->size() == Key.size() || (*It)[Key.size()] == ' ');
  }
  return Streamed[Site] != 0;
}

uint32_t Feed::intern(const std::string &Key) {
  auto [It, New] = Ids.try_emplace(Key, static_cast<uint32_t>(Names.size()));
  if (New) {
    Names.push_back(Key);
    SiteStreams.emplace_back();
  }
  return It->second;
}

int64_t Feed::find(const std::string &Key) const {
  auto It = Ids.find(Key);
  return It == Ids.end() ? -1 : It->second;
}

const SiteInfo *Feed::siteInfo(uint32_t Id) const {
  auto It = SiteInfos.find(Id);
  return It == SiteInfos.end() ? nullptr : &It->second;
}

bool Feed::nested(uint32_t Outer, uint32_t Inner) const {
  return Outer < Inside.size() && Inner < Inside[Outer].size() &&
         Inside[Outer][Inner];
}

Where Feed::whereAt(int64_t Ts, uint32_t Thread, uint32_t Site,
                    std::string Detail) const {
  Where W;
  if (Cur) {
    W.TracePath = Cur->Path;
    W.Rank = Cur->Process.Rank;
    W.Since = Ts - Cur->Process.StartNs;
  }
  W.Thread = Thread;
  W.Ts = Ts;
  W.Site = Names[Site];
  if (const SiteInfo *S = siteInfo(Site)) {
    W.File = S->File;
    W.Line = S->Line;
  }
  W.Detail = std::move(Detail);
  return W;
}

Where Feed::where(const Event &E, uint32_t Site, std::string Detail) const {
  return whereAt(E.Ts, E.Thread, Site, std::move(Detail));
}

void Feed::beginTrace(const Trace &T) {
  Cur = &T;
  ++TraceCount;
  SiteIds.assign(T.Sites.size(), -1);
  Stacks.clear();
}

uint32_t Feed::siteOf(const Trace &T, uint32_t Id) {
  // Sites a streaming reader learns after the first events extend the
  // table; an id no site block declared names the reader's unknown site.
  if (Id >= SiteIds.size() && Id < T.Sites.size())
    SiteIds.resize(T.Sites.size(), -1);
  if (Id >= SiteIds.size()) {
    uint32_t S = intern(siteKey(T.site(Id)));
    SiteInfos.try_emplace(S, T.site(Id));
    return S;
  }
  if (SiteIds[Id] >= 0)
    return static_cast<uint32_t>(SiteIds[Id]);
  const SiteInfo &Info = T.site(Id);
  uint32_t S = intern(siteKey(Info));
  SiteInfos.try_emplace(S, Info);
  SiteIds[Id] = S;
  return S;
}

void Feed::close(std::vector<OpenScope> &Stack) {
  OpenScope S = std::move(Stack.back());
  Stack.pop_back();
  for (Sink *K : Sinks)
    K->scopeClosed(*this, S);
  for (const OpenScope::Child &C : S.Children)
    S.Pos[C.Site] = -1;
  PosPool.push_back(std::move(S.Pos));
}

void Feed::endTrace() {
  for (auto &[Thread, Stack] : Stacks)
    while (!Stack.empty())
      close(Stack);
  if (Cur)
    for (Sink *K : Sinks)
      K->traceEnded(*this);
  Stacks.clear();
  Cur = nullptr;
}

void Feed::observe(const Trace &T, const Event &E) {
  if (&T != Cur) {
    if (Cur)
      endTrace();
    beginTrace(T);
  }
  ++Records;
  uint32_t Site = siteOf(T, E.Site);
  std::vector<OpenScope> &Stack = Stacks[E.Thread];
  bool IsRegion = E.Kind == EventKind::Region;
  int64_t End = E.Ts + (IsRegion ? E.Dur : 0);
  // Records come in start order: one that does not fit in the innermost
  // open region starts after it, and so does every later one.
  while (!Stack.empty() &&
         !(E.Ts >= Stack.back().Start && End <= Stack.back().End))
    close(Stack);
  for (OpenScope &S : Stack) {
    if (S.Pos.size() <= Site)
      S.Pos.resize(Names.size(), -1);
    if (S.Pos[Site] < 0) {
      S.Pos[Site] = static_cast<int32_t>(S.Children.size());
      S.Children.push_back({Site, E.Ts});
    }
    if (Nesting) {
      if (Inside.size() <= S.Site)
        Inside.resize(S.Site + 1);
      if (Inside[S.Site].size() <= Site)
        Inside[S.Site].resize(Names.size());
      Inside[S.Site][Site] = true;
    }
  }
  for (Sink *K : Sinks)
    K->record(*this, E, Site);
  if (streamed(Site))
    stream(E, Site, T.site(E.Site), Stack);
  if (IsRegion) {
    OpenScope S;
    S.Site = Site;
    S.Start = E.Ts;
    S.End = End;
    S.Iter = NextIter++;
    S.Thread = E.Thread;
    S.Partial = E.Unfinished;
    if (!PosPool.empty()) {
      S.Pos = std::move(PosPool.back());
      PosPool.pop_back();
    }
    Stack.push_back(std::move(S));
  }
}

bool Feed::leaf(Point &P) {
  // A site's records have the same leaves in the same order, record after
  // record: the leaf at this position last time is a comparison away.
  std::vector<Leaf> &L = *Layout;
  if (LeafNo < L.size() && L[LeafNo].Path == PathBuf) {
    P.Stream = L[LeafNo].Stream;
  } else {
    auto &Map = SiteStreams[P.Site];
    auto It = Map.find(PathBuf);
    if (It == Map.end()) {
      uint32_t Id = intern(Names[P.Site] + PathBuf);
      // intern() may have grown SiteStreams: look the site's map up again.
      It = SiteStreams[P.Site].emplace(PathBuf, Id).first;
    }
    P.Stream = It->second;
    if (LeafNo < L.size())
      L[LeafNo] = {PathBuf, P.Stream};
    else
      L.push_back({PathBuf, P.Stream});
  }
  ++LeafNo;
  if (!Filter)
    return true;
  if (P.Stream >= Wanted.size())
    Wanted.resize(Names.size(), -1);
  if (Wanted[P.Stream] < 0)
    Wanted[P.Stream] =
        std::binary_search(Subjects.begin(), Subjects.end(), Names[P.Stream]);
  return Wanted[P.Stream] != 0;
}

void Feed::send(const Point &P) {
  for (Sink *K : Sinks)
    K->value(*this, P);
}

void Feed::flatten(const Value &V, std::string &Path, Point &P, int Depth) {
  size_t Mark = Path.size();
  if (isScalar(V)) {
    if (!leaf(P))
      return; // no check wants it: not even converted
    scalarOf(V, P.V);
    P.TopLevel = Depth == 0;
    P.HashField = Path.size() >= 5 && Path.compare(Mark - 5, 5, ".hash") == 0;
    send(P);
    return;
  }
  if (V.K == Value::Kind::Array) {
    bool Scalars = true;
    for (const Value &I : V.items())
      Scalars &= isScalar(I);
    if (Scalars) {
      if (!leaf(P) || !arrayText(V, TextBuf))
        return;
      P.V.K = Scalar::Kind::Str;
      P.V.S = TextBuf;
      P.TopLevel = Depth == 0;
      P.HashField = false;
      send(P);
      return;
    }
    if (Depth >= 3)
      return;
    size_t I = 0;
    for (const Value &Item : V.items()) {
      Path += "[" + std::to_string(I++) + "]";
      flatten(Item, Path, P, Depth + 1);
      Path.resize(Mark);
    }
    return;
  }
  if (V.K != Value::Kind::Object || Depth >= 3)
    return; // null, truncated: nothing to compare
  for (const auto &[Name, Member] : V.members()) {
    Path += ".";
    Path += Name;
    flatten(Member, Path, P, Depth + 1);
    Path.resize(Mark);
  }
}

void Feed::stream(const Event &E, uint32_t Site, const SiteInfo &Info,
                  const std::vector<OpenScope> &Stack) {
  Point &P = Pt; // reused: its string keeps its capacity
  P.Site = Site;
  P.E = &E;
  P.Stack = &Stack;
  if (Site >= Layouts.size())
    Layouts.resize(Names.size());
  Layout = &Layouts[Site].Leaves;
  LeafNo = 0;
  // A site's own args (not the context it inherits: the site that set the
  // context has those as its own).
  if (!Info.ArgNames.empty() && E.A) {
    P.O = Origin::Arg;
    for (const auto &[Name, V] : *E.A) {
      bool Own = false;
      for (const std::string &N : Info.ArgNames)
        Own |= N == Name;
      if (!Own)
        continue;
      PathBuf = " arg ";
      PathBuf += Name;
      P.HashField = false;
      if (isScalar(V) && leaf(P)) {
        scalarOf(V, P.V);
        P.TopLevel = true;
        send(P);
      }
    }
  }
  if (E.Kind != EventKind::Watch)
    return;
  switch (Info.Kind) {
  case SiteKind::State: {
    const Value *Param = E.V.get("param");
    if (!Param || Param->K != Value::Kind::String)
      return;
    P.O = Origin::State;
    // One layout per parameter: their leaves differ by the name.
    Layout = &Layouts[Site].ByParam[Param->str()];
    LeafNo = 0;
    for (const auto &[Name, Member] : E.V.members()) {
      if (Name == "param")
        continue;
      PathBuf = " [";
      PathBuf += Param->str();
      PathBuf += "].";
      PathBuf += Name;
      flatten(Member, PathBuf, P, 1);
    }
    return;
  }
  case SiteKind::Api: {
    const Value *Phase = E.V.get("phase");
    if (!Phase)
      return;
    if (Phase->str() == "pre") {
      // One stream per argument, even when all are scalars.
      P.O = Origin::ApiArg;
      const Value *Args = E.V.get("args");
      if (!Args)
        return;
      size_t I = 0;
      for (const Value &A : Args->items()) {
        PathBuf = " args[" + std::to_string(I++) + "]";
        flatten(A, PathBuf, P, 1);
      }
    } else if (Phase->str() == "post") {
      P.O = Origin::ApiRet;
      if (const Value *Ret = E.V.get("ret")) {
        PathBuf = " ret";
        flatten(*Ret, PathBuf, P, 1);
      }
    }
    return;
  }
  default:
    P.O = Origin::Watch;
    PathBuf = " value";
    flatten(E.V, PathBuf, P, 0);
    return;
  }
}

} // namespace sonde::trace::inv
