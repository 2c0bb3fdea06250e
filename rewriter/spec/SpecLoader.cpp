//===- SpecLoader.cpp - Loading probes.yaml -------------------------------===//
//
// YAML in, data out; no AST here. parseSpec checks the bytes are text and
// one YAML document, parses it with yaml-cpp (its errors said in terms of
// what to fix), reads `version:` and `torch_ops:`, and hands every other
// top-level key to its section's loader (SpecLoaders.h). Every problem is
// collected (not just the first) and located at the offending key or value.
//
//===----------------------------------------------------------------------===//

#include "SpecChecks.h"
#include "SpecLoaders.h"
#include "SpecText.h"
#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

using namespace spectext;

const char *const TopKeys[] = {"version", "scope", "probes",   "watches",
                               "apis",    "state", "torch_ops"};
const char *const TorchOpsKeys[] = {"shapes"};

void loadVersion(SpecChecks &C, const YAML::Node &V) {
  unsigned N = 0;
  double D;
  if (V.IsScalar() && StringRef(V.Scalar()).getAsInteger(10, N) &&
      !StringRef(V.Scalar()).getAsDouble(D)) {
    // `1.0`, `2e3`, a huge number.
    C.error(C.Pos.valueLoc(V),
            "unsupported spec version '" + V.Scalar() +
                "'; this sonde reads version 1",
            V.Scalar().size(), "1");
    return;
  }
  if (!V.IsScalar() || StringRef(V.Scalar()).getAsInteger(10, N)) {
    C.error(C.Pos.valueLoc(V), "'version' is a number: 'version: 1'");
    return;
  }
  if (N != 1)
    C.error(C.Pos.valueLoc(V),
            "unsupported spec version " + Twine(N) +
                "; this sonde reads version 1",
            V.Scalar().size(), "1");
  C.S.Version = N;
}

void loadTorchOps(SpecChecks &C, const YAML::Node &V) {
  TorchOps &Ops = C.S.Ops;
  Ops.Loc = C.Pos.valueLoc(V);
  if (V.IsMap()) {
    Ops.On = true;
    for (auto It = V.begin(); It != V.end(); ++It) {
      if (!C.checkKey(It->first, TorchOpsKeys, "torch_ops key"))
        continue;
      if (It->second.IsNull())
        C.error(C.Pos.loc(It->first), "'shapes' has no value", 6);
      else
        C.boolean(It->second, "shapes", Ops.Shapes);
    }
    return;
  }
  if (!V.IsScalar()) {
    C.error(C.Pos.loc(V), "'torch_ops' is 'true', 'false' or '{shapes: true}'");
    return;
  }
  C.boolean(V, "torch_ops", Ops.On);
}

/// The entries of a section: each map once (an alias repeats one), each to
/// its loader.
void loadEntries(SpecChecks &C, const YAML::Node &V, Section Sec) {
  // An alias (`- *p`) repeats the anchored node itself, with its position.
  std::map<size_t, unsigned> Entries;
  for (const YAML::Node &P : V) {
    if (P.IsMap()) {
      auto [Prev, New] =
          Entries.insert({size_t(P.Mark().pos), unsigned(P.Mark().line + 1)});
      if (!New) {
        C.error(C.Pos.loc(P), "the probe on line " + Twine(Prev->second) +
                                  " is listed again through a YAML alias; "
                                  "every hit would be recorded twice");
        continue;
      }
    }
    if (Sec == Section::Apis)
      loadApi(C, P);
    else
      loadProbe(C, P, Sec);
  }
}

/// Parses `Text` (the text of `C.S.SM`) into the spec, or reports why not.
void load(SpecChecks &C, StringRef Text) {
  Spec &S = C.S;
  if (std::optional<size_t> Bad = notText(Text)) {
    SpecLoc L = C.Pos.offsetLoc(*Bad);
    unsigned char Ch = Text[*Bad];
    // The position without the line: printing it would print the bytes.
    C.Diags.push_back(SMDiagnostic(
        S.Path + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Col),
        SourceMgr::DK_Error,
        Ch == 0 ? "the spec holds a NUL byte; a probe spec is UTF-8 text"
                : "the spec is not UTF-8 text (byte 0x" +
                      utohexstr(Ch, /*LowerCase=*/true) + ")"));
    C.HasErrors = true;
    return;
  }
  if (Text.trim().empty() || all_of(split(Text, '\n'), [](StringRef L) {
        L = L.trim();
        return L.empty() || L.starts_with("#");
      })) {
    C.Diags.push_back(SMDiagnostic(
        S.Path, SourceMgr::DK_Error,
        "the spec is empty; write 'version: 1' and the probes under "
        "'probes:' (regions) or 'watches:' (values)"));
    C.HasErrors = true;
    return;
  }
  // yaml-cpp 0.7's LoadAll loops forever on some broken input (found by
  // fuzz-spec), so one document is loaded and a second one is found by
  // its marker.
  if (unsigned Line = secondDocument(Text)) {
    C.error(SpecLoc{Line, 1}, "a spec is one YAML document; this is a second "
                              "one");
    return;
  }
  YAML::Node Root;
  try {
    Root = YAML::Load(Text.str());
  } catch (const YAML::DeepRecursion &E) {
    // yaml-cpp says "bad file".
    C.error(SpecLoc{unsigned(E.mark.line + 1), unsigned(E.mark.column + 1)},
            "invalid YAML: nested more than " + Twine(E.depth()) +
                " levels deep (a probe spec needs 4)");
    return;
  } catch (const YAML::ParserException &E) {
    SpecLoc L{unsigned(E.mark.line + 1), unsigned(E.mark.column + 1)};
    StringRef Line;
    if (E.mark.line >= 0) {
      SmallVector<StringRef> Lines;
      Text.split(Lines, '\n');
      if (size_t(E.mark.line) < Lines.size())
        Line = Lines[E.mark.line];
    }
    std::string Msg =
        yamlMessage(E.msg, Line, unsigned(std::max(0, E.mark.column)));
    if (unsigned Open = unclosedQuoteBefore(Text, L.Line))
      Msg += "; the quote opened on line " + std::to_string(Open) +
             " is not closed";
    C.error(L, Msg);
    return;
  }
  if (!Root.IsMap()) {
    C.error(Root.IsDefined() && !Root.IsNull() ? C.Pos.loc(Root)
                                               : SpecLoc{1, 1},
            "a probe spec is a map with 'version', 'scope', 'probes', "
            "'watches', 'apis', 'state' and 'torch_ops'");
    return;
  }
  if (!C.checkTags(Root))
    return;
  C.checkDuplicates(Root);
  bool SawVersion = false, SawProbes = false;
  std::string EmptySection; // the first section given with no entries
  SpecLoc EmptyLoc;
  for (auto It = Root.begin(); It != Root.end(); ++It) {
    std::string Key = It->first.Scalar();
    const YAML::Node V = It->second; // a copy: It-> returns a temporary proxy
    if (!C.checkKey(It->first, TopKeys, "top-level key"))
      continue;
    // torch_ops, or an entry in a section, says what to instrument.
    SawProbes |= Key == "torch_ops";
    if (V.IsNull() && (Key == "version" || Key == "torch_ops")) {
      SawVersion |= Key == "version";
      C.error(C.Pos.loc(It->first),
              "'" + Key + "' has no value" +
                  (Key == "version" ? "; write 'version: 1'" : ""),
              Key.size());
    } else if (Key == "version") {
      SawVersion = true;
      loadVersion(C, V);
    } else if (Key == "scope") {
      loadScope(C, V);
    } else if (Key == "torch_ops") {
      loadTorchOps(C, V);
    } else {
      Section Sec = Key == "probes"    ? Section::Probes
                    : Key == "watches" ? Section::Watches
                    : Key == "apis"    ? Section::Apis
                                       : Section::State;
      if (V.IsNull() || (V.IsSequence() && V.size() == 0)) {
        if (EmptySection.empty()) {
          EmptySection = Key;
          EmptyLoc = C.Pos.loc(It->first);
        }
        continue;
      }
      SawProbes = true;
      if (!V.IsSequence()) {
        C.error(C.Pos.loc(V), "'" + Key + "' is a list of entries ('- " +
                                  (Sec == Section::Apis ? "call" : "at") +
                                  ": ...')");
        continue;
      }
      loadEntries(C, V, Sec);
    }
  }
  if (!SawVersion)
    C.error(SpecLoc{1, 1}, "missing 'version: 1' at the top of the spec");
  else if (!SawProbes && !EmptySection.empty())
    C.error(EmptyLoc,
            "'" + EmptySection +
                "' has no entries; nothing would be instrumented",
            EmptySection.size());
  else if (!SawProbes)
    C.error(SpecLoc{1, 1}, "the spec has no 'probes:', 'watches:', 'apis:', "
                           "'state:' or 'torch_ops:'; "
                           "nothing would be instrumented");
}

} // namespace

Expected<Spec> parseSpec(StringRef Text, StringRef Path) {
  // yaml-cpp skips a byte-order mark and counts positions after it; so do
  // the diagnostics.
  Text.consume_front("\xef\xbb\xbf");
  Spec S;
  S.Path = Path.str();
  S.SM = std::make_shared<SourceMgr>();
  S.SM->AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Path), SMLoc());
  SpecChecks C(S);
  load(C, Text);
  if (C.HasErrors)
    return make_error<SpecDiagnostics>(std::move(C.Diags));
  return S;
}

Expected<Spec> loadSpec(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return make_error<SpecDiagnostics>(std::vector<SMDiagnostic>{
        SMDiagnostic(Path, SourceMgr::DK_Error,
                     "cannot read the spec: " + Buf.getError().message())});
  return parseSpec((*Buf)->getBuffer(), Path);
}

} // namespace rewriter
} // namespace sonde
