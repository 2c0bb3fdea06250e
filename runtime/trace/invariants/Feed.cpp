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
#include <cstring>

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

using detail::FlatNode;

bool scalarOf(const FlatNode &V, Scalar &Out) {
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
    Out.S.assign(V.S);
    return true;
  default:
    return false;
  }
}

/// An array of scalars (a shape) as one text value: `[64,1,28,28]`.
bool arrayText(const std::vector<FlatNode> &Nodes, uint32_t At,
               std::string &Out) {
  Out.assign(1, '[');
  Scalar S;
  for (uint32_t I = At + 1; I < Nodes[At].End; I = Nodes[I].End) {
    if (!scalarOf(Nodes[I], S))
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
  }
  return It->second;
}

int64_t Feed::find(const std::string &Key) const {
  auto It = Ids.find(Key);
  // -1 as an int64_t: `? -1 : It->second` made it an unsigned 2^32 - 1,
  // which idOf() kept as an id, so a name the first trace did not record
  // was never found in the traces after it.
  return It == Ids.end() ? int64_t(-1) : int64_t(It->second);
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
  ++Gen; // the last trace's string table may be gone
  SiteIds.assign(T.Sites.size(), -1);
  Stacks.clear();
  LastStack = nullptr;
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
  S.Children.clear();
  ChildPool.push_back(std::move(S.Children));
}

void Feed::endTrace() {
  giveBack();
  for (auto &[Thread, Scopes] : Stacks)
    while (!Scopes.Open.empty())
      close(Scopes.Open);
  if (Cur)
    for (Sink *K : Sinks)
      K->traceEnded(*this);
  Stacks.clear();
  LastStack = nullptr;
  Cur = nullptr;
}

using detail::FlatNode;

void Feed::observe(const Trace &T, const Event &E) {
  if (&T != Cur) {
    if (Cur)
      endTrace();
    beginTrace(T);
  }
  ++Records;
  giveBack(); // had the last record left it lent (an exception)
  uint32_t Site = siteOf(T, E.Site);
  // Records come in runs of one thread: its stack is looked up once a run
  // (the map's nodes stay where they are as it grows).
  if (!LastStack || LastThread != E.Thread) {
    LastStack = &Stacks[E.Thread];
    LastThread = E.Thread;
  }
  std::vector<OpenScope> &Stack = LastStack->Open;
  bool IsRegion = E.Kind == EventKind::Region;
  int64_t End = E.Ts + (IsRegion ? E.Dur : 0);
  // The record holds scope S / fits in scope S.
  auto Holds = [&](const OpenScope &S) {
    return E.Ts <= S.Start && S.End <= End;
  };
  auto Fits = [&](const OpenScope &S) {
    return S.Start <= E.Ts && End <= S.End;
  };
  // A thread's records come in program order, a region before what it
  // holds; when the look-ahead was full, a region comes after records it
  // holds (only a region: the rest keep their order). Such a region starts
  // before a record already given, or (the same nanosecond) holds the
  // innermost open scope and more. Only when its stream gave records early
  // (TraceStream::late()): a damaged record's time alone is not trusted
  // (events a caller gives without a stream are taken at their times).
  // (Only a region's lateness changes anything: the test is made for
  // regions alone.)
  bool OutOfOrder = IsRegion &&
                    (E.Ts < LastStack->LatestStart ||
                     (!Stack.empty() && Holds(Stack.back()) &&
                      (E.Ts < Stack.back().Start || Stack.back().End < End))) &&
                    (!T.Stream || T.Stream->late() != 0);
  if (E.Ts > LastStack->LatestStart)
    LastStack->LatestStart = E.Ts;
  // It goes under the open scopes it holds, which stay open: it is not a
  // record past their end.
  size_t Under = Stack.size();
  if (OutOfOrder) {
    while (Under > 0 && Holds(Stack[Under - 1]))
      --Under;
    if (Under > 0 && !Fits(Stack[Under - 1]))
      Under = Stack.size(); // not nested as a region is: as any record
  }
  if (Under == Stack.size()) {
    // Records come in start order: one that does not fit in the innermost
    // open region starts after it, and so does every later one.
    while (!Stack.empty() && !Fits(Stack.back()))
      close(Stack);
    Under = Stack.size();
  }
  for (size_t I = 0; I < Under; ++I) {
    OpenScope &S = Stack[I];
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
  Layout *L = nullptr;
  CurParamStream = -1;
  ValueAt = NoValue;
  const SiteInfo &Info = T.site(E.Site);
  bool Known = false;
  if (streamed(Site)) {
    if (Site >= Layouts.size())
      Layouts.resize(Names.size());
    bool IsState = Info.Kind == SiteKind::State && E.Kind == EventKind::Watch;
    // Most watch records have the shape of the last one of their layout:
    // read against it, in one walk of their bytes.
    L = readKnown(E, Info, Site);
    Known = L != nullptr;
    if (!Known) {
      flattenRecord(E, Info);
      L = &Layouts[Site].Plain;
      if (IsState) {
        L = paramLayout(Site);
      } else if (Info.Kind == SiteKind::Api && E.Kind == EventKind::Watch) {
        const FlatNode *Phase = field("phase");
        if (Phase && Phase->K == Value::Kind::String && Phase->S == "post")
          L = &Layouts[Site].Post;
        Layouts[Site].LastPost = L == &Layouts[Site].Post;
      }
    }
    if (IsState && L)
      CurParamStream = L->ParamStream;
  }
  for (Sink *K : Sinks)
    K->record(*this, E, Site);
  if (L)
    stream(E, Info, Site, Stack, *L, Known);
  giveBack();
  ValueAt = NoValue;
  if (IsRegion) {
    OpenScope S;
    S.Site = Site;
    S.Start = E.Ts;
    S.End = End;
    S.Iter = NextIter++;
    S.Thread = E.Thread;
    S.Partial = E.Unfinished || OutOfOrder;
    if (!PosPool.empty()) {
      S.Pos = std::move(PosPool.back());
      PosPool.pop_back();
    }
    if (!ChildPool.empty()) {
      S.Children = std::move(ChildPool.back());
      ChildPool.pop_back();
    }
    if (Under == Stack.size())
      Stack.push_back(std::move(S));
    else // a late region, under the open scopes it holds
      Stack.insert(Stack.begin() + static_cast<ptrdiff_t>(Under), std::move(S));
  }
}

Feed::Cat Feed::catOf(uint32_t Node, int Depth, Origin O) const {
  const FlatNode &V = Flat[Node];
  if (V.isScalar())
    return Cat::Scalar;
  if (O == Origin::Arg) // a site's args: scalars only
    return Cat::None;
  if (V.K == Value::Kind::Array) {
    bool Scalars = true;
    for (uint32_t I = Node + 1; I < V.End; I = Flat[I].End)
      Scalars &= Flat[I].isScalar();
    return Scalars ? Cat::Text : Depth >= 3 ? Cat::None : Cat::List;
  }
  return V.K == Value::Kind::Object && Depth < 3 ? Cat::Object : Cat::None;
}

void Feed::flattenRecord(const Event &E, const SiteInfo &Info) {
  Flat.clear();
  Roots.clear();
  ValueAt = NoValue;
  // A site's own args (not the context it inherits: the site that set the
  // context has those as its own).
  if (!Info.ArgNames.empty() && E.A)
    for (const auto &[Name, V] : *E.A) {
      bool Own = false;
      for (const std::string &N : Info.ArgNames)
        Own |= N == Name;
      if (Own) {
        addRoot(static_cast<uint32_t>(Flat.size()), std::string_view(Name), 0,
                Origin::Arg);
        detail::flatten(V, Flat);
      }
    }
  if (E.Kind != EventKind::Watch)
    return;
  ValueAt = static_cast<uint32_t>(Flat.size());
  detail::flatten(E.V, Flat);
  const FlatNode &Top = Flat[ValueAt];
  switch (Info.Kind) {
  case SiteKind::State:
    if (Top.K == Value::Kind::Object)
      for (uint32_t I = ValueAt + 1; I < Top.End; I = Flat[I].End)
        if (std::string_view(*Flat[I].Key) != "param") // length first
          addRoot(I, std::string_view(*Flat[I].Key), 1, Origin::State);
    return;
  case SiteKind::Api: {
    const FlatNode *Phase = field("phase");
    if (!Phase || Phase->K != Value::Kind::String)
      return;
    if (Phase->S == "pre") {
      // One stream per argument, even when all are scalars.
      const FlatNode *Args = field("args");
      if (Args && Args->K == Value::Kind::Array) {
        auto A = static_cast<uint32_t>(Args - Flat.data());
        for (uint32_t I = A + 1; I < Args->End; I = Flat[I].End)
          addRoot(I, std::string_view(), 1, Origin::ApiArg);
      }
    } else if (Phase->S == "post") {
      if (const FlatNode *Ret = field("ret"))
        addRoot(static_cast<uint32_t>(Ret - Flat.data()),
                std::string_view("ret"), 1, Origin::ApiRet);
    }
    return;
  }
  default:
    addRoot(ValueAt, std::string_view("value"), 0, Origin::Watch);
    return;
  }
}

bool Feed::verify(uint32_t Node, std::string_view Name, int Depth, Origin O,
                  const Layout &L, size_t &At) const {
  if (At >= L.Toks.size())
    return false;
  const Tok &T = L.Toks[At++];
  Cat C = catOf(Node, Depth, O);
  if (T.C != C || T.Depth != Depth || T.O != O)
    return false;
  // A member's key from the file's string table: the pointer the layout
  // saw in this trace is the same name, no comparison needed.
  const FlatNode &N = Flat[Node];
  if (!(N.TableKey && T.Key == N.Key && T.KeyGen == Gen)) {
    if (T.Name != Name)
      return false;
    if (N.TableKey) {
      T.Key = N.Key;
      T.KeyGen = Gen;
    }
  }
  if (C == Cat::Object || C == Cat::List)
    for (uint32_t I = Node + 1; I < Flat[Node].End; I = Flat[I].End)
      if (!verify(I, C == Cat::Object ? *Flat[I].Key : std::string_view(),
                  Depth + 1, O, L, At))
        return false;
  return true;
}

bool Feed::sameShape(const Layout &L) const {
  if (L.SigGen != Gen || L.Sig.size() != Flat.size() ||
      L.SigRoots.size() != Roots.size())
    return false;
  for (size_t I = 0; I < Flat.size(); ++I) {
    const FlatNode &N = Flat[I];
    const Layout::SigNode &S = L.Sig[I];
    if (N.K != S.K || N.End != S.End || N.Key != S.Key)
      return false;
  }
  for (size_t I = 0; I < Roots.size(); ++I) {
    const Root &R = Roots[I];
    const Layout::SigRoot &S = L.SigRoots[I];
    if (R.Node != S.Node || R.Depth != S.Depth || R.O != S.O)
      return false;
    if (S.NameIsKey ? !nameIsKey(R) : R.Name != S.Name)
      return false;
  }
  return true;
}

void Feed::noteShape(Layout &L, const Event &E, const SiteInfo &Info) const {
  L.SigGen = 0;
  L.PlanOk = false;
  L.Readable = false;
  L.NodesOk = false;
  L.ShapeNo = 0;
  L.PlacesOk = false;
  L.KeyNode = ~0u;
  L.KeyText.clear();
  L.Sig.clear();
  L.SigRoots.clear();
  for (size_t I = 0; I < Flat.size(); ++I) {
    const FlatNode &N = Flat[I];
    // A key that is not a string table's may be another name at the same
    // address next time: no shape to compare.
    if (N.Key && !N.TableKey)
      return;
    uint32_t Count = 0;
    if (N.K == Value::Kind::Object || N.K == Value::Kind::Array)
      for (uint32_t C = static_cast<uint32_t>(I) + 1; C < N.End;
           C = Flat[C].End)
        ++Count;
    L.Sig.push_back({N.K, N.End, N.Key, Count});
  }
  for (const Root &R : Roots)
    L.SigRoots.push_back(
        {R.Node, R.Depth, R.O, nameIsKey(R), std::string(R.Name)});
  L.SigGen = Gen;
  // What readKnown() needs: a watch's value first, and the text that chose
  // the layout and its roots.
  if (E.Kind != EventKind::Watch || ValueAt != 0 || Flat.empty())
    return;
  const char *Key = Info.Kind == SiteKind::State ? "param"
                    : Info.Kind == SiteKind::Api ? "phase"
                                                 : nullptr;
  if (Key) {
    const FlatNode *N = Flat[0].K == Value::Kind::Object
                            ? detail::flatMember(Flat, 0, Key)
                            : nullptr;
    if (!N || N->K != Value::Kind::String)
      return;
    L.KeyNode = static_cast<uint32_t>(N - Flat.data());
    L.KeyText = N->S;
  }
  L.Readable = true;
}

void Feed::build(uint32_t Node, std::string_view Name, bool Item, int Depth,
                 Origin O, uint32_t Site, Layout &L) {
  size_t Mark = PathBuf.size();
  Tok T;
  T.Name = Name;
  T.Depth = static_cast<uint8_t>(Depth);
  T.C = catOf(Node, Depth, O);
  T.O = O;
  // The stream's path, as docs/invariants.md names it.
  if (Depth == 0)
    PathBuf += O == Origin::Arg ? " arg " : " ";
  else if (Item)
    PathBuf += "[" + std::string(Name) + "]";
  else if (O == Origin::ApiArg && Depth == 1)
    ; // ` args[I]`, written by the caller
  else
    PathBuf += Depth == 1 && O == Origin::ApiRet ? " " : ".";
  if (!Item)
    PathBuf += Name;
  T.HashField = PathBuf.size() >= 5 &&
                PathBuf.compare(PathBuf.size() - 5, 5, ".hash") == 0;
  if (T.C == Cat::Scalar || T.C == Cat::Text)
    T.Stream = intern(Names[Site] + PathBuf);
  if (Item)
    T.Name.clear();
  L.Toks.push_back(std::move(T));
  Cat C = L.Toks.back().C;
  if (C == Cat::Object) {
    for (uint32_t I = Node + 1; I < Flat[Node].End; I = Flat[I].End)
      build(I, *Flat[I].Key, false, Depth + 1, O, Site, L);
  } else if (C == Cat::List) {
    size_t N = 0;
    for (uint32_t I = Node + 1; I < Flat[Node].End; I = Flat[I].End)
      build(I, std::to_string(N++), true, Depth + 1, O, Site, L);
  }
  PathBuf.resize(Mark);
}

bool Feed::wanted(uint32_t Stream) {
  if (Stream >= ToSinks.size())
    ToSinks.resize(Names.size());
  StreamSinks &S = ToSinks[Stream];
  if (!S.Known) {
    S.Known = true;
    for (Sink *K : Sinks)
      if (K->wants(*this, Stream))
        S.Sinks.push_back(K);
    S.Pure = !S.Sinks.empty();
    for (Sink *K : S.Sinks)
      S.Pure = S.Pure && K->pure(*this, Stream);
    S.Q = S.Pure ? Quiet() : Quiet::never();
    for (Sink *K : S.Sinks)
      if (!S.Q.Never)
        S.Q.also(K->quiet(*this, Stream));
  }
  CurSinks = &S.Sinks;
  return !S.Sinks.empty();
}

namespace {

/// The memo key of the array at `Node` (its items, as bytes that are equal
/// exactly when the items are), piece by piece into `Put(Data, Size)`,
/// which may stop it by returning false: one definition of the key for
/// making it and for comparing with it.
template <class PutFn>
bool memoPieces(const std::vector<FlatNode> &Flat, uint32_t Node, PutFn &&Put) {
  for (uint32_t I = Node + 1; I < Flat[Node].End; I = Flat[I].End) {
    const FlatNode &Item = Flat[I];
    auto K = static_cast<char>(Item.K);
    if (!Put(&K, 1))
      return false;
    if (Item.K == Value::Kind::String) {
      // Its length first: two items never read as one.
      uint64_t Len = Item.S.size();
      if (!Put(&Len, sizeof(Len)) || !Put(Item.S.data(), Item.S.size()))
        return false;
    } else if (!Put(&Item.U, sizeof(Item.U))) {
      // the bits: 0.0 and -0.0 differ, a NaN is never sent twice
      return false;
    }
  }
  return true;
}

} // namespace

void Feed::memoKey(uint32_t Node) {
  MemoBuf.clear();
  memoPieces(Flat, Node, [this](const void *P, size_t N) {
    MemoBuf.append(static_cast<const char *>(P), N);
    return true;
  });
}

bool Feed::sameItems(uint32_t Node, const std::string &Memo) const {
  size_t At = 0;
  return memoPieces(Flat, Node,
                    [&Memo, &At](const void *P, size_t N) {
                      if (Memo.size() - At < N ||
                          std::memcmp(Memo.data() + At, P, N) != 0)
                        return false;
                      At += N;
                      return true;
                    }) &&
         At == Memo.size();
}

bool Feed::repeats(uint32_t Node, Tok &T) {
  const FlatNode &N = Flat[Node];
  bool Same;
  if (N.K == Value::Kind::String) {
    Same = T.MemoK == N.K && T.MemoS == N.S;
    if (!Same)
      T.MemoS.assign(N.S);
  } else if (N.K == Value::Kind::Array) {
    // Compared in place: the key is made only when it changed.
    Same = T.MemoK == N.K && sameItems(Node, T.MemoS);
    if (!Same) {
      memoKey(Node);
      T.MemoS.swap(MemoBuf);
    }
  } else { // the bits: 0.0 and -0.0 differ, a NaN is never sent twice
    Same = T.MemoK == N.K && T.MemoBits == N.U;
    T.MemoBits = N.U;
  }
  if (Same && T.Held)
    return true;
  T.MemoK = N.K;
  T.Held = false;
  return false;
}

void Feed::sendLeaf(uint32_t Node, Tok &T, bool TopLevel) {
  bool Pure = ToSinks[T.Stream].Pure;
  if (Pure && repeats(Node, T))
    return; // sent last time and broke nothing: it would not now
  uint64_t Before = Violations;
  Point &P = Pt;
  P.Stream = T.Stream;
  P.O = T.O;
  P.TopLevel = TopLevel;
  P.HashField = T.HashField;
  if (T.C == Cat::Scalar) {
    scalarOf(Flat[Node], P.V);
  } else {
    arrayText(Flat, Node, TextBuf);
    P.V.K = Scalar::Kind::Str;
    P.V.S = TextBuf;
  }
  for (Sink *K : *CurSinks)
    K->value(*this, P);
  T.Sent = true;
  if (Pure)
    T.Held = Violations == Before;
}

void Feed::sendAll(uint32_t Node, int Depth, Layout &L, size_t &At) {
  auto TokAt = static_cast<uint32_t>(At);
  Tok &T = L.Toks[At++];
  switch (T.C) {
  case Cat::None:
    return;
  case Cat::Scalar:
  case Cat::Text:
    if (!wanted(T.Stream))
      return; // no check wants it: not even converted
    if (Planning)
      Planning->Plan.push_back(
          {Node, TokAt, Depth == 0, ToSinks[T.Stream].Pure});
    sendLeaf(Node, T, Depth == 0);
    return;
  case Cat::Object:
  case Cat::List:
    for (uint32_t I = Node + 1; I < Flat[Node].End; I = Flat[I].End)
      sendAll(I, Depth + 1, L, At);
    return;
  }
}

Feed::Layout *Feed::paramLayout(uint32_t Site) {
  const FlatNode *Param = field("param");
  if (!Param || Param->K != Value::Kind::String)
    return nullptr;
  SiteLayouts &S = Layouts[Site];
  std::string_view Name = Param->S;
  size_t I = S.NextParam;
  if (I >= S.Params.size() || S.Params[I].Param != Name) {
    auto [It, New] =
        S.ParamIndex.try_emplace(std::string(Name), S.Params.size());
    if (New) {
      S.Params.emplace_back();
      S.Params.back().Param = Name;
      S.Params.back().ParamStream =
          intern(Names[Site] + " [" + std::string(Name) + "]");
    }
    I = It->second;
  }
  S.NextParam = I + 1 == S.Params.size() ? 0 : I + 1;
  return &S.Params[I];
}

Feed::Layout *Feed::readKnown(const Event &E, const SiteInfo &Info,
                              uint32_t Site) {
  if (E.Kind != EventKind::Watch)
    return nullptr;
  // Args of its own would come first in Flat (an API site names its
  // parameters, and its records carry only the context's args).
  if (!Info.ArgNames.empty() && E.A)
    for (const auto &KV : *E.A)
      for (const std::string &N : Info.ArgNames)
        if (N == KV.first)
          return nullptr;
  const Value::Encoding Enc = E.V.encoding();
  if (!Enc.Data || !Enc.Keys)
    return nullptr;
  SiteLayouts &S = Layouts[Site];
  switch (Info.Kind) {
  case SiteKind::State: {
    size_t I = S.NextParam;
    if (I >= S.Params.size() || !readAs(Enc, S.Params[I]))
      return nullptr;
    S.NextParam = I + 1 == S.Params.size() ? 0 : I + 1; // as paramLayout()
    return &S.Params[I];
  }
  case SiteKind::Api: {
    // Pre and post records alternate: the other phase first.
    Layout *First = S.LastPost ? &S.Plain : &S.Post;
    Layout *Second = S.LastPost ? &S.Post : &S.Plain;
    Layout *L = readAs(Enc, *First)    ? First
                : readAs(Enc, *Second) ? Second
                                       : nullptr;
    if (L)
      S.LastPost = L == &S.Post;
    return L;
  }
  default:
    return readAs(Enc, S.Plain) ? &S.Plain : nullptr;
  }
}

bool Feed::readAs(const Value::Encoding &Enc, Layout &L) {
  if (!L.PlanOk || !L.Readable || L.SigGen != Gen)
    return false;
  if (!L.NodesOk) {
    detail::shapeNodes(L.Sig.data(), L.Sig.size(), L.Nodes);
    L.NodesOk = true;
  }
  // A value of a structure already read by this shape in this trace (its
  // reader's number) has only its payloads read; another is checked.
  // (ShapeNo is of this trace: noteShape(), which made Sig in this trace,
  // reset it.)
  // A number whose values have every payload at one place (an exact one)
  // has them read there, the nodes between not walked.
  bool KeyChecked = false;
  if (Enc.Shape && L.ShapeNo == Enc.Shape) {
    if (L.PlacesOk) {
      // The key first: another parameter's record of the same structure
      // is turned away unread.
      if (L.KeyPlace != ~0u) {
        const detail::PayloadPlace &K = L.Places[L.KeyPlace];
        if (std::string_view(reinterpret_cast<const char *>(Enc.Data) + K.At,
                             K.Len) != L.KeyText)
          return false;
        KeyChecked = true;
      }
      detail::readAtPlaces(Enc, L.Places, L.Nodes.data());
    } else {
      detail::readByShape(Enc, L.Sig.data(), L.Sig.size(), L.Nodes.data());
    }
  } else {
    if (!detail::flattenAs(Enc, L.Sig.data(), L.Sig.size(), L.Nodes.data()))
      return false;
    L.ShapeNo = Enc.Shape;
    L.PlacesOk = Enc.Shape && Enc.ShapeExact &&
                 detail::payloadPlaces(Enc, L.Sig.data(), L.Sig.size(),
                                       L.Nodes.data(), L.Places);
    L.KeyPlace = ~0u;
    for (size_t I = 0; L.PlacesOk && I < L.Places.size(); ++I)
      if (L.Places[I].Node == L.KeyNode && L.Places[I].K == Value::Kind::String)
        L.KeyPlace = static_cast<uint32_t>(I);
  }
  if (!KeyChecked && L.KeyNode != ~0u && L.Nodes[L.KeyNode].S != L.KeyText)
    return false;
  Flat.swap(L.Nodes); // until giveBack(), at the end of the record
  Lent = &L;
  // Its roots are made only if the layout's plan does not serve
  // (stream()): a layout read by has one.
  Roots.clear();
  ValueAt = 0;
  return true;
}

void Feed::rootsOf(const Layout &L) {
  // The roots flattenRecord() lists for this shape and key.
  Roots.clear();
  for (const Layout::SigRoot &R : L.SigRoots)
    addRoot(R.Node,
            R.NameIsKey ? std::string_view(*Flat[R.Node].Key)
                        : std::string_view(R.Name),
            R.Depth, R.O);
}

void Feed::stream(const Event &E, const SiteInfo &Info, uint32_t Site,
                  const std::vector<OpenScope> &Stack, Layout &L, bool Known) {
  Point &P = Pt; // reused: its string keeps its capacity
  P.Site = Site;
  P.E = &E;
  P.Stack = &Stack;
  // Does the record have the layout of the last one? Its shape the same,
  // or else names compared, no path built; if not, the layout is made
  // again from this record.
  if (L.PlanOk && (Known || sameShape(L))) {
    for (const Layout::Leaf &F : L.Plan) {
      Tok &T = L.Toks[F.Tok];
      // Most leaves of a model state record are the value sent last time:
      // told here, without a call.
      if (F.Pure && heldRepeat(F.Node, T))
        continue;
      const StreamSinks &To = ToSinks[T.Stream];
      // A new value its sinks would do nothing with (a gradient's norm,
      // checked finite): told without a call, once one was sent.
      if (T.Sent && T.C == Cat::Scalar && To.Q.passes(Flat[F.Node]))
        continue;
      CurSinks = &To.Sinks;
      sendLeaf(F.Node, T, F.TopLevel);
    }
    return;
  }
  if (Known)
    rootsOf(L);
  size_t At = 0;
  bool Same = true;
  if (sameShape(L)) {
    At = L.Toks.size();
  } else {
    for (const Root &R : Roots) {
      Same = verify(R.Node, R.Name, R.Depth, R.O, L, At);
      if (!Same)
        break;
    }
    if (Same && At == L.Toks.size())
      noteShape(L, E, Info);
  }
  if (!Same || At != L.Toks.size()) {
    L.Toks.clear();
    std::string Prefix = L.Param.empty() ? std::string() : " [" + L.Param + "]";
    size_t ArgNo = 0;
    for (const Root &R : Roots) {
      PathBuf.clear();
      if (R.O == Origin::State)
        PathBuf = Prefix;
      else if (R.O == Origin::ApiArg)
        PathBuf = " args[" + std::to_string(ArgNo++) + "]";
      build(R.Node, R.Name, false, R.Depth, R.O, Site, L);
    }
    noteShape(L, E, Info);
  }
  // The shape is noted (unless a key was not a string table's): list the
  // leaves sent, for the records of the same shape after this one.
  L.Plan.clear();
  Planning = L.SigGen == Gen ? &L : nullptr;
  At = 0;
  for (const Root &R : Roots)
    sendAll(R.Node, R.Depth, L, At);
  L.PlanOk = Planning != nullptr;
  Planning = nullptr;
}

} // namespace sonde::trace::inv
