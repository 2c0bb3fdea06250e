//===- ProbeKeys.cpp - The keys of a probe entry --------------------------===//
//
// See ProbeKeys.h. One row per key and meaning: `summary:` of a watch and of
// a `state:` entry read different names, `args:` of a probe is a map of
// expressions and of an `apis:` entry a summary, so each is two rows. The
// order of the rows is the order in which messages list a section's keys.
//
//===----------------------------------------------------------------------===//

#include "ProbeKeys.h"
#include "SpecText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <limits>

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

using namespace spectext;

/// What reading a key left of the entry.
enum class Read {
  Next, ///< read on (the value may have been refused, said already)
  Drop, ///< the entry makes no sense any more: drop it, say nothing more
};

using KeyReader = Read (*)(SpecChecks &C, StringRef Key,
                           const YAML::Node &KeyNode, const YAML::Node &V,
                           ProbeDraft &D);

/// One key of an entry.
struct ProbeKey {
  const char *Name;
  unsigned Sections; ///< a bit per Section that accepts it
  /// The reader takes a null value (`at:` alone) too; for the other keys it
  /// is "'KEY' has no value".
  bool TakesNull;
  KeyReader Read;
};

constexpr unsigned bit(Section S) { return 1u << unsigned(S); }
constexpr unsigned Regions = bit(Section::Probes) | bit(Section::Watches);
constexpr unsigned State = bit(Section::State);
constexpr unsigned Apis = bit(Section::Apis);
constexpr unsigned All = Regions | State | Apis;

/// A summary named in `Kinds` into P.Summary.
bool readSummaryKind(SpecChecks &C, const YAML::Node &V, StringRef Key,
                     ArrayRef<const char *> Kinds, Probe &P) {
  std::string T;
  if (!C.scalar(V, Key, T))
    return false;
  if (!is_contained(Kinds, StringRef(T))) {
    std::string Best = nearest(T, Kinds);
    C.error(C.Pos.valueLoc(V),
            "unknown " + Key.str() + " '" + T + "'" +
                (Best.empty() ? "; expected " + join(Kinds, ", ")
                              : "; did you mean '" + Best + "'?"),
            T.size(), Best);
    return false;
  }
  // The spec's names are sonde/site.h's, in lower case.
  for (SummaryKind S :
       {SummaryKind::Value, SummaryKind::Shape, SummaryKind::Stats,
        SummaryKind::Hash, SummaryKind::Full})
    if (StringRef(summaryName(S)).lower() == T)
      P.Summary = S;
  return true;
}

// `at:` (P.At, P.AtLoc): the selector, parsed once every key is read.
Read readAt(SpecChecks &C, StringRef Key, const YAML::Node &KeyNode,
            const YAML::Node &V, ProbeDraft &D) {
  D.AtNode = V;
  D.AtGiven = true;
  if (V.IsNull()) {
    C.error(C.Pos.loc(KeyNode),
            "'at' has no value; it is the selector: 'at: \"train > "
            "loss\"'",
            2);
    return Read::Next;
  }
  Probe &P = D.P;
  D.HasAt = C.scalar(V, Key, P.At);
  P.AtLoc = C.Pos.valueLoc(V);
  // An unclosed quote runs on to the end of the file.
  if (D.HasAt && !C.oneLine(V, Key))
    return Read::Drop;
  if (D.HasAt && StringRef(P.At).find_first_of("\r\n") != StringRef::npos) {
    C.error(P.AtLoc, "the selector holds a line break");
    return Read::Drop;
  }
  return Read::Next;
}

// `call:` (D.Call): the callee glob of an `apis:` entry.
Read readCall(SpecChecks &C, StringRef Key, const YAML::Node &KeyNode,
              const YAML::Node &V, ProbeDraft &D) {
  if (V.IsNull()) {
    C.error(C.Pos.loc(KeyNode), C.noValue(KeyNode, Key), Key.size());
    return Read::Drop;
  }
  D.HasCall = C.scalar(V, Key, D.Call) && C.oneLine(V, Key);
  D.CallLoc = C.Pos.valueLoc(V);
  return D.HasCall ? Read::Next : Read::Drop;
}

// `within:` (D.Within): the calling function selector of an `apis:` entry.
Read readWithin(SpecChecks &C, StringRef Key, const YAML::Node &,
                const YAML::Node &V, ProbeDraft &D) {
  D.HasWithin = C.scalar(V, Key, D.Within) && C.oneLine(V, Key);
  D.WithinLoc = C.Pos.valueLoc(V);
  return D.HasWithin ? Read::Next : Read::Drop;
}

// `category:` (P.Category, P.CategoryLoc).
Read readCategory(SpecChecks &C, StringRef Key, const YAML::Node &,
                  const YAML::Node &V, ProbeDraft &D) {
  Probe &P = D.P;
  if (C.scalar(V, Key, P.Category)) {
    P.CategoryLoc = C.Pos.valueLoc(V);
    if (C.checkCategory(P.Category, V))
      C.checkPrintable(V, Key);
  }
  return Read::Next;
}

// `model:` (P.Model, P.ModelLoc): the C++ expression naming the model.
Read readModel(SpecChecks &C, StringRef Key, const YAML::Node &,
               const YAML::Node &V, ProbeDraft &D) {
  Probe &P = D.P;
  if (C.scalar(V, Key, P.Model)) {
    if (P.Model.empty())
      C.error(C.Pos.valueLoc(V), "'model' needs a C++ expression naming the "
                                 "model ('model', '*net')");
    else
      C.checkSpecCode(V, Key, "'" + Key.str() + "'");
  }
  P.ModelLoc = C.Pos.valueLoc(V);
  return Read::Next;
}

// `summary:` of a watch (P.Summary).
Read readSummary(SpecChecks &C, StringRef Key, const YAML::Node &,
                 const YAML::Node &V, ProbeDraft &D) {
  static const char *const Kinds[] = {"value", "shape", "stats", "hash",
                                      "full"};
  if (readSummaryKind(C, V, Key, Kinds, D.P))
    D.SummaryNode = V;
  return Read::Next;
}

// `summary:` of a `state:` entry (P.Summary): per-parameter statistics or
// hashes.
Read readStateSummary(SpecChecks &C, StringRef Key, const YAML::Node &,
                      const YAML::Node &V, ProbeDraft &D) {
  static const char *const Kinds[] = {"stats", "hash"};
  if (readSummaryKind(C, V, Key, Kinds, D.P))
    D.SummaryNode = V;
  return Read::Next;
}

// `name:` (P.Name): the event name.
Read readName(SpecChecks &C, StringRef Key, const YAML::Node &,
              const YAML::Node &V, ProbeDraft &D) {
  if (C.scalar(V, Key, D.P.Name) && C.oneLine(V, Key))
    C.checkName(V);
  return Read::Next;
}

// `args:` of a probe (P.Args): recorded name to C++ expression.
Read readArgs(SpecChecks &C, StringRef, const YAML::Node &, const YAML::Node &V,
              ProbeDraft &D) {
  if (!V.IsMap()) {
    C.error(C.Pos.loc(V), "'args' is a map of name to C++ expression: "
                          "'{epoch: epoch}'");
    return Read::Next;
  }
  C.checkDuplicates(V);
  for (auto A = V.begin(); A != V.end(); ++A) {
    C.checkIdentifier(A->first, "arg name");
    D.ArgKeyLocs.push_back(C.Pos.loc(A->first));
    SpecArg Arg;
    Arg.Name = A->first.Scalar();
    if (!A->second.IsScalar() || A->second.Scalar().empty()) {
      C.error(C.Pos.loc(A->second),
              "arg '" + Arg.Name + "' needs a C++ expression");
      continue;
    }
    Arg.Expr = A->second.Scalar();
    Arg.ExprLoc = C.Pos.valueLoc(A->second);
    C.checkSpecCode(A->second, "args", "arg '" + Arg.Name + "'");
    D.P.Args.push_back(std::move(Arg));
  }
  return Read::Next;
}

// `args:` of an `apis:` entry (P.Summary, P.ApiArgs): how arguments and
// return values are summarized, or `none`.
Read readApiArgs(SpecChecks &C, StringRef Key, const YAML::Node &,
                 const YAML::Node &V, ProbeDraft &D) {
  if (V.IsScalar() && V.Scalar() == "none") {
    D.P.ApiArgs = false;
    return Read::Next;
  }
  static const char *const Kinds[] = {"shape", "stats", "hash", "none"};
  readSummaryKind(C, V, Key, Kinds, D.P);
  return Read::Next;
}

// `context:` (P.Context).
Read readContext(SpecChecks &C, StringRef Key, const YAML::Node &,
                 const YAML::Node &V, ProbeDraft &D) {
  bool B;
  if (C.boolean(V, Key, B))
    D.P.Context = B;
  return Read::Next;
}

// `when:` (P.When, P.WhenLoc): a C++ condition.
Read readWhen(SpecChecks &C, StringRef Key, const YAML::Node &,
              const YAML::Node &V, ProbeDraft &D) {
  Probe &P = D.P;
  if (C.scalar(V, Key, P.When))
    C.checkSpecCode(V, Key, "'" + Key.str() + "'");
  P.WhenLoc = C.Pos.valueLoc(V);
  return Read::Next;
}

// `items:` (P.Items, P.ItemsLoc): a C++ expression counting the items the
// region processes (a number, a tensor's first dimension, a container's
// size; sonde::itemCount).
Read readItems(SpecChecks &C, StringRef Key, const YAML::Node &,
               const YAML::Node &V, ProbeDraft &D) {
  Probe &P = D.P;
  if (C.scalar(V, Key, P.Items))
    C.checkSpecCode(V, Key, "'" + Key.str() + "'");
  P.ItemsLoc = C.Pos.valueLoc(V);
  D.ItemsNode = V;
  return Read::Next;
}

// `check:` (P.CheckFinite): what the watched value must be; `finite`.
Read readCheck(SpecChecks &C, StringRef Key, const YAML::Node &,
               const YAML::Node &V, ProbeDraft &D) {
  std::string T;
  if (!C.scalar(V, Key, T))
    return Read::Next;
  D.CheckNode = V;
  if (T == "finite")
    D.P.CheckFinite = true;
  else
    C.error(C.Pos.valueLoc(V), "unknown check '" + T + "'; expected 'finite'",
            T.size(), "finite");
  return Read::Next;
}

// `every:` (P.Every): record one hit in N.
Read readEvery(SpecChecks &C, StringRef, const YAML::Node &,
               const YAML::Node &V, ProbeDraft &D) {
  Probe &P = D.P;
  std::string T = V.IsScalar() ? V.Scalar() : std::string();
  if (!V.IsScalar() || StringRef(T).getAsInteger(10, P.Every) || P.Every == 0) {
    bool Digits = !T.empty() && all_of(T, isDigit) && T.size() > 9;
    C.error(C.Pos.valueLoc(V),
            Digits ? "'every' is at most " +
                         Twine(std::numeric_limits<unsigned>::max())
                   : Twine("'every' is a positive integer"),
            T.size());
  }
  return Read::Next;
}

// `enabled:` (P.Enabled).
Read readEnabled(SpecChecks &C, StringRef Key, const YAML::Node &,
                 const YAML::Node &V, ProbeDraft &D) {
  C.boolean(V, Key, D.P.Enabled);
  return Read::Next;
}

// `mode:` (P.Mode): a region, or a start and a stop instant.
Read readMode(SpecChecks &C, StringRef Key, const YAML::Node &,
              const YAML::Node &V, ProbeDraft &D) {
  std::string T;
  if (!C.scalar(V, Key, T))
    return Read::Next;
  if (T == "region")
    D.P.Mode = ModeKind::Region;
  else if (T == "instant")
    D.P.Mode = ModeKind::Instant;
  else
    C.error(C.Pos.valueLoc(V),
            "unknown mode '" + T + "'; expected 'region' or 'instant'",
            T.size(), T.size() && T[0] == 'i' ? "instant" : "region");
  D.ModeNode = V;
  return Read::Next;
}

const ProbeKey ProbeKeys[] = {
    // Name, the sections that accept it, whether it reads null, the reader.
    {"at", Regions | State, true, readAt},
    {"call", Apis, true, readCall},
    {"within", Apis, false, readWithin},
    {"category", Regions, false, readCategory},
    {"model", State, false, readModel},
    {"summary", State, false, readStateSummary},
    {"name", Regions | State, false, readName},
    {"args", Regions, false, readArgs},
    {"args", Apis, false, readApiArgs},
    {"context", Regions, false, readContext},
    {"when", All, false, readWhen},
    {"every", All, false, readEvery},
    {"items", Regions, false, readItems},
    {"summary", Regions, false, readSummary},
    {"check", Regions, false, readCheck},
    {"enabled", All, false, readEnabled},
    {"mode", Regions, false, readMode},
};

/// The keys `Sec` accepts, in the table's order.
ArrayRef<const char *> keyNames(Section Sec) {
  constexpr unsigned NumSections = unsigned(Section::State) + 1;
  static const std::array<std::vector<const char *>, NumSections> Names = [] {
    std::array<std::vector<const char *>, NumSections> V;
    for (const ProbeKey &K : ProbeKeys)
      for (unsigned S = 0; S < NumSections; ++S)
        if (K.Sections & (1u << S))
          V[S].push_back(K.Name);
    return V;
  }();
  return Names[unsigned(Sec)];
}

/// The row of `Name`, a key `Sec` accepts.
const ProbeKey &probeKey(Section Sec, StringRef Name) {
  return *find_if(ProbeKeys, [&](const ProbeKey &K) {
    return (K.Sections & bit(Sec)) && Name == K.Name;
  });
}

/// How messages name a key of `Sec`.
StringRef keyKind(Section Sec) {
  switch (Sec) {
  case Section::Probes:
  case Section::Watches:
    return "probe key";
  case Section::State:
    return "state key";
  case Section::Apis:
    return "apis key";
  }
  return "";
}

} // namespace

bool readProbeKeys(SpecChecks &C, const YAML::Node &N, Section Sec,
                   ProbeDraft &D) {
  C.checkDuplicates(N);
  for (auto It = N.begin(); It != N.end(); ++It) {
    if (!C.checkKey(It->first, keyNames(Sec), keyKind(Sec))) {
      D.AtMisspelt |= C.LastSuggestion == "at";
      continue;
    }
    const ProbeKey &K = probeKey(Sec, It->first.Scalar());
    StringRef Key = K.Name;
    const YAML::Node V = It->second; // a copy: It-> returns a temporary proxy
    if (V.IsNull() && !K.TakesNull) {
      // yaml-cpp marks an empty value at the next line.
      C.error(C.Pos.loc(It->first), C.noValue(It->first, Key), Key.size());
      continue;
    }
    if (K.Read(C, Key, It->first, V, D) == Read::Drop)
      return false;
  }
  return true;
}

} // namespace rewriter
} // namespace sonde
