//===- ProbeLoader.cpp - Entries of probes:, watches: and state: ----------===//
//
// An entry's keys are read through the key table (ProbeKeys.cpp); what is
// checked here needs all of them: the `at:` selector parsed and normalized,
// captures and args that would be recorded under one name, and the section
// rules: regions go under `probes:`, values under `watches:`, and `state:`
// records a model at a point.
//
//===----------------------------------------------------------------------===//

#include "ProbeKeys.h"
#include "SpecLoaders.h"

#include "clang/Basic/CharInfo.h"

#include <map>

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

/// Regions go under `probes:`, values under `watches:`.
void checkSection(SpecChecks &C, const Probe &P, const ProbeDraft &D) {
  const std::optional<YAML::Node> &SummaryNode = D.SummaryNode;
  const std::optional<YAML::Node> &ModeNode = D.ModeNode;
  const Query &Q = P.Q;
  bool IsValue = Q.Focus == FocusKind::Item &&
                 (Q.FocusItem.Kind == TargetKind::Variable ||
                  Q.FocusItem.Kind == TargetKind::AnyVariable ||
                  Q.FocusItem.Kind == TargetKind::Star ||
                  Q.FocusItem.Meta == MetaKind::Value);
  bool IsRegion =
      Q.Focus != FocusKind::Item || Q.FocusItem.Kind == TargetKind::Call;
  if (P.Sec == Section::Probes && IsValue)
    C.error(P.AtLoc,
            "'" + Q.FocusItem.spelling() +
                "' is a value; move this probe under 'watches:'",
            P.At.size());
  if (P.Sec == Section::Watches && IsRegion) {
    // A lone name is a function; under `watches:` it was meant as a
    // variable.
    bool LoneName = Q.Focus == FocusKind::Function && Q.Context.empty() &&
                    Q.Captures.empty() &&
                    clang::isValidAsciiIdentifier(Q.Host.Glob);
    C.error(P.AtLoc,
            LoneName
                ? "'" + P.At +
                      "' names a function (a region); to watch "
                      "a variable, name its function: 'F > " +
                      P.At + "'; regions go under 'probes:'"
                : "'" + P.At + "' is a region; move this probe under 'probes:'",
            P.At.size());
  }
  if (P.Sec == Section::Probes && SummaryNode)
    C.error(C.Pos.valueLoc(*SummaryNode), "'summary' applies to watches only",
            SummaryNode->Scalar().size());
  if (P.Sec == Section::Probes && D.CheckNode)
    C.error(C.Pos.valueLoc(*D.CheckNode), "'check' applies to watches only",
            D.CheckNode->Scalar().size());
  if (P.Sec == Section::Watches && ModeNode)
    C.error(C.Pos.valueLoc(*ModeNode),
            "'mode' applies to regions under 'probes:'",
            ModeNode->Scalar().size());
}

/// `items:` counts what a region processes: rates need its duration, so a
/// value, a point event (`#enter`, `#exit`, `#error`) and a region recorded
/// as two instants (`mode: instant`) cannot carry it.
void checkItems(SpecChecks &C, const Probe &P, const ProbeDraft &D) {
  if (!D.ItemsNode || P.Items.empty())
    return;
  SpecLoc L = C.Pos.valueLoc(*D.ItemsNode);
  unsigned Len = D.ItemsNode->Scalar().size();
  const Item &I = P.Q.FocusItem;
  bool Point = P.Q.Focus == FocusKind::Item &&
               (I.Meta == MetaKind::Enter || I.Meta == MetaKind::Exit ||
                I.Meta == MetaKind::Error || I.Meta == MetaKind::EndLoopVar);
  if (P.Sec == Section::Watches)
    C.error(L, "'items' applies to regions under 'probes:'", Len);
  else if (Point)
    C.error(L,
            "'items' needs a region with a duration; '" + P.At +
                "' is a point in time (put it on the function or the loop)",
            Len);
  else if (P.Mode == ModeKind::Instant)
    C.error(L,
            "'items' needs a region recorded as one record; 'mode: instant' "
            "records a start and a stop instant",
            Len);
}

/// `state:` records after a point: a call site (after its statement),
/// `#enter`, `#exit`, or the start or end of a loop's iterations.
bool checkState(SpecChecks &C, Probe &P, const YAML::Node &N) {
  const Query &Q = P.Q;
  const Item &I = Q.FocusItem;
  bool Point = Q.Focus == FocusKind::Item &&
               (I.Kind == TargetKind::Call || I.Meta == MetaKind::Enter ||
                I.Meta == MetaKind::Exit || I.Meta == MetaKind::LoopVar ||
                I.Meta == MetaKind::EndLoopVar);
  bool Ok = true;
  if (!Point) {
    C.error(P.AtLoc,
            "'" + P.At +
                "' is not a point where state can be recorded; use a call "
                "site ('train_epoch > *::step()'), '#enter', '#exit', "
                "'#loop_X' or '#endloop_X'",
            P.At.size());
    Ok = false;
  }
  if (P.Model.empty()) {
    if (!N["model"])
      C.error(C.Pos.loc(N), "state entry has no 'model' (the C++ expression "
                            "naming the model, e.g. 'model: model')");
    Ok = false;
  }
  if (P.Summary == SummaryKind::Default)
    P.Summary = SummaryKind::Stats;
  return Ok;
}

/// Captures and args land in one record, under their names.
void checkRecordedNames(SpecChecks &C, const ProbeDraft &D) {
  const Probe &P = D.P;
  std::map<std::string, std::string> Recorded; // name -> what it is
  for (const Item &Cap : P.Q.Captures) {
    const std::string &Name = Cap.As.empty() ? Cap.Name : Cap.As;
    if (!Recorded.insert({Name, "capture '" + Cap.Name + "'"}).second)
      C.error(C.S.selectorLoc(P, Cap.Offset),
              "'" + Name + "' is recorded twice in each event (" +
                  Recorded[Name] + " and capture '" + Cap.Name +
                  "'); rename one with 'as'",
              Cap.Length);
  }
  for (size_t I = 0; I < P.Args.size(); ++I) {
    const std::string &Name = P.Args[I].Name;
    auto [It, New] = Recorded.insert({Name, "arg '" + Name + "'"});
    // Two args of one name are duplicate keys, said already.
    if (!New && I < D.ArgKeyLocs.size() &&
        StringRef(It->second).starts_with("capture"))
      C.error(D.ArgKeyLocs[I],
              "'" + Name + "' is recorded twice in each event (" + It->second +
                  " and this arg); rename the arg",
              Name.size());
  }
}

} // namespace

void loadProbe(SpecChecks &C, const YAML::Node &N, Section Sec) {
  if (!N.IsMap()) {
    C.error(C.Pos.entryLoc(N), "a probe is a map with at least 'at'");
    return;
  }
  ProbeDraft D;
  Probe &P = D.P;
  P.Sec = Sec;
  P.Index = C.S.Probes.size();
  bool IsState = Sec == Section::State;
  if (IsState)
    P.Category = "state";
  if (!readProbeKeys(C, N, Sec, D))
    return;
  if (!D.HasAt) {
    // `At:` or `at_:` was already answered with "did you mean 'at'?".
    if (!D.AtGiven && !D.AtMisspelt)
      C.error(C.Pos.loc(N), "probe has no 'at' selector");
    return;
  }
  auto Sel = parseSelector(P.At);
  Expected<Query> Q = Sel ? normalize(*Sel) : Expected<Query>(Sel.takeError());
  if (!Q) {
    // `at: train > #loop_x` unquoted: YAML took ` #...` as a comment.
    std::string Hint;
    StringRef Buf = C.Pos.buffer();
    size_t I = C.Pos.textPos(D.AtNode);
    if (I != StringRef::npos && Buf[I] != '"' && Buf[I] != '\'') {
      StringRef After = Buf.substr(I + P.At.size()).split('\n').first;
      if (After.ltrim(" \t").starts_with("#") && After.starts_with(" "))
        Hint = "; the rest of the line, from ' #', is a YAML comment: "
               "write the selector in quotes";
    }
    handleAllErrors(Q.takeError(), [&](const SelectorError &E) {
      C.selectorError(P.AtLoc, E, Hint);
    });
    return;
  }
  P.Q = std::move(*Q);
  checkRecordedNames(C, D);
  if (IsState) {
    if (!checkState(C, P, N))
      return;
  } else {
    checkSection(C, P, D);
    checkItems(C, P, D);
  }
  C.S.Probes.push_back(std::move(P));
}

} // namespace rewriter
} // namespace sonde
