//===- Spec.cpp - Loading probes.yaml -------------------------------------===//
//
// YAML in, data out. No AST here. Every problem is collected (not just the
// first) and located at the offending key or value.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Spec.h"
#include "SpecText.h"
#include "sonde/rewriter/Diag.h"

#include "clang/Basic/CharInfo.h"
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

const char *const Categories[] = {
    "compute",
    "compute.forward",
    "compute.backward",
    "compute.step",
    "data",
    "data.preprocess",
    "data.item",
    "dataloader",
    "dataloader.fetch",
    "comm",
    "comm.send",
    "comm.receive",
    "comm.barrier",
    "comm.bcast",
    "comm.reduce",
    "comm.all_reduce",
    "comm.gather",
    "comm.all_gather",
    "comm.scatter",
    "comm.reduce_scatter",
    "comm.all_to_all",
    "device",
    "device.transfer",
    "checkpoint",
    "checkpoint.capture",
    "checkpoint.restart",
    "pipeline",
    "pipeline.epoch",
    "pipeline.train",
    "pipeline.evaluate",
    "pipeline.test",
    "user",
};

const char *const TopKeys[] = {"version", "scope", "probes",   "watches",
                               "apis",    "state", "torch_ops"};
const char *const ApiKeys[] = {"call", "within", "args",
                               "when", "every",  "enabled"};
const char *const StateKeys[] = {"at",   "model", "summary", "name",
                                 "when", "every", "enabled"};
const char *const TorchOpsKeys[] = {"shapes"};
const char *const ProbeKeys[] = {"at",      "category", "name",  "args",
                                 "context", "when",     "every", "summary",
                                 "enabled", "mode"};
const char *const ScopeKeys[] = {"include", "exclude"};
const char *const ScopeRuleKeys[] = {"file", "function"};

class Loader {
public:
  Loader(Spec &S) : S(S) {}

  void load(StringRef Text) {
    if (std::optional<size_t> Bad = notText(Text)) {
      SpecLoc L = offsetLoc(*Bad);
      unsigned char C = Text[*Bad];
      // The position without the line: printing it would print the bytes.
      Diags.push_back(SMDiagnostic(
          S.Path + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Col),
          SourceMgr::DK_Error,
          C == 0 ? "the spec holds a NUL byte; a probe spec is UTF-8 text"
                 : "the spec is not UTF-8 text (byte 0x" +
                       utohexstr(C, /*LowerCase=*/true) + ")"));
      HasErrors = true;
      return;
    }
    if (Text.trim().empty() || all_of(split(Text, '\n'), [](StringRef L) {
          L = L.trim();
          return L.empty() || L.starts_with("#");
        })) {
      Diags.push_back(SMDiagnostic(
          S.Path, SourceMgr::DK_Error,
          "the spec is empty; write 'version: 1' and the probes under "
          "'probes:' (regions) or 'watches:' (values)"));
      HasErrors = true;
      return;
    }
    // yaml-cpp 0.7's LoadAll loops forever on some broken input (found by
    // fuzz-spec), so one document is loaded and a second one is found by
    // its marker.
    if (unsigned Line = secondDocument(Text)) {
      error(SpecLoc{Line, 1}, "a spec is one YAML document; this is a second "
                              "one");
      return;
    }
    YAML::Node Root;
    try {
      Root = YAML::Load(Text.str());
    } catch (const YAML::DeepRecursion &E) {
      // yaml-cpp says "bad file".
      error(SpecLoc{unsigned(E.mark.line + 1), unsigned(E.mark.column + 1)},
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
      error(L, Msg);
      return;
    }
    if (!Root.IsMap()) {
      error(Root.IsDefined() && !Root.IsNull() ? loc(Root) : SpecLoc{1, 1},
            "a probe spec is a map with 'version', 'scope', 'probes', "
            "'watches', 'apis', 'state' and 'torch_ops'");
      return;
    }
    if (!checkTags(Root))
      return;
    checkDuplicates(Root);
    bool SawVersion = false, SawProbes = false;
    std::string EmptySection; // the first section given with no entries
    SpecLoc EmptyLoc;
    for (auto It = Root.begin(); It != Root.end(); ++It) {
      std::string Key = It->first.Scalar();
      const YAML::Node V = It->second; // a copy: It-> returns a temporary proxy
      if (!checkKey(It->first, TopKeys, "top-level key"))
        continue;
      // torch_ops, or an entry in a section, says what to instrument.
      SawProbes |= Key == "torch_ops";
      if (V.IsNull() && (Key == "version" || Key == "torch_ops")) {
        SawVersion |= Key == "version";
        error(loc(It->first),
              "'" + Key + "' has no value" +
                  (Key == "version" ? "; write 'version: 1'" : ""),
              Key.size());
      } else if (Key == "version") {
        SawVersion = true;
        loadVersion(V);
      } else if (Key == "scope") {
        loadScope(V);
      } else if (Key == "torch_ops") {
        loadTorchOps(V);
      } else {
        Section Sec = Key == "probes"    ? Section::Probes
                      : Key == "watches" ? Section::Watches
                      : Key == "apis"    ? Section::Apis
                                         : Section::State;
        if (V.IsNull() || (V.IsSequence() && V.size() == 0)) {
          if (EmptySection.empty()) {
            EmptySection = Key;
            EmptyLoc = loc(It->first);
          }
          continue;
        }
        if (!V.IsSequence()) {
          error(loc(V), "'" + Key + "' is a list of entries ('- " +
                            (Sec == Section::Apis ? "call" : "at") + ": ...')");
          SawProbes = true; // said already
          continue;
        }
        SawProbes = true;
        // An alias (`- *p`) repeats the anchored node itself, with its
        // position.
        std::map<size_t, unsigned> Entries;
        for (const YAML::Node &P : V) {
          if (P.IsMap()) {
            auto [Prev, New] = Entries.insert(
                {size_t(P.Mark().pos), unsigned(P.Mark().line + 1)});
            if (!New) {
              error(loc(P), "the probe on line " + Twine(Prev->second) +
                                " is listed again through a YAML alias; "
                                "every hit would be recorded twice");
              continue;
            }
          }
          if (Sec == Section::Apis)
            loadApi(P);
          else
            loadProbe(P, Sec);
        }
      }
    }
    if (!SawVersion)
      error(SpecLoc{1, 1}, "missing 'version: 1' at the top of the spec");
    else if (!SawProbes && !EmptySection.empty())
      error(EmptyLoc,
            "'" + EmptySection +
                "' has no entries; nothing would be instrumented",
            EmptySection.size());
    else if (!SawProbes)
      error(SpecLoc{1, 1}, "the spec has no 'probes:', 'watches:', 'apis:', "
                           "'state:' or 'torch_ops:'; "
                           "nothing would be instrumented");
  }

  std::vector<SMDiagnostic> Diags;
  bool HasErrors = false;

private:
  Spec &S;
  /// The key the last unknown key was taken for, if any.
  std::string LastSuggestion;

  SpecLoc loc(const YAML::Node &N) const {
    YAML::Mark M = N.Mark();
    if (M.is_null())
      return SpecLoc{};
    return SpecLoc{unsigned(M.line + 1), unsigned(M.column + 1)};
  }

  StringRef buffer() const { return S.SM->getMemoryBuffer(1)->getBuffer(); }

  /// Columns count from the last '\n', as Spec::diag finds them again
  /// (SourceMgr::getLineAndColumn also breaks lines at a lone '\r').
  SpecLoc offsetLoc(size_t Off) const {
    StringRef Before = buffer().take_front(Off);
    return SpecLoc{unsigned(1 + Before.count('\n')),
                   unsigned(1 + Before.size() - (Before.rfind('\n') + 1))};
  }

  /// Where a node's text starts: after an anchor (`&a`) or a tag (`!t`)
  /// before it; npos when unknown.
  size_t textPos(const YAML::Node &N) const {
    YAML::Mark M = N.Mark();
    StringRef Buf = buffer();
    if (M.is_null() || size_t(M.pos) >= Buf.size())
      return StringRef::npos;
    size_t I = M.pos;
    while (I < Buf.size() && (Buf[I] == '&' || Buf[I] == '!')) {
      while (I < Buf.size() && !isSpace(Buf[I]))
        ++I;
      while (I < Buf.size() && (Buf[I] == ' ' || Buf[I] == '\t'))
        ++I;
    }
    return I < Buf.size() ? I : StringRef::npos;
  }

  /// The location of a scalar's first character (after its quote).
  SpecLoc valueLoc(const YAML::Node &N) const {
    size_t I = textPos(N);
    if (I == StringRef::npos)
      return loc(N);
    StringRef Buf = buffer();
    if (Buf[I] == '"' || Buf[I] == '\'')
      ++I;
    return offsetLoc(I);
  }

  /// "'when' has no value", and why when something was written after the
  /// key: `when: &&x` is an anchor named `&x` on nothing.
  std::string noValue(const YAML::Node &KeyNode, StringRef Key) const {
    std::string Msg = "'" + Key.str() + "' has no value";
    YAML::Mark M = KeyNode.Mark();
    StringRef Buf = buffer();
    if (M.is_null() || size_t(M.pos) >= Buf.size())
      return Msg;
    StringRef Rest = Buf.substr(M.pos).split('\n').first;
    size_t Colon = Rest.find(':');
    if (Colon == StringRef::npos)
      return Msg;
    Rest = Rest.drop_front(Colon + 1).trim();
    if (Rest.starts_with("&") || Rest.starts_with("!"))
      Msg += "; '" + Rest.take_front(1).str() + "' after '" + Key.str() +
             ":' starts a YAML " + (Rest[0] == '&' ? "anchor" : "tag") +
             ": write the value in quotes";
    return Msg;
  }

  /// Where a null sequence entry (`  -` alone) is: its '-'. yaml-cpp marks
  /// it at the next token.
  SpecLoc entryLoc(const YAML::Node &N) const {
    YAML::Mark M = N.Mark();
    if (!N.IsNull() || M.is_null())
      return loc(N);
    StringRef Before =
        buffer().take_front(std::min<size_t>(M.pos, buffer().size()));
    size_t Dash = Before.find_last_not_of(" \t\r\n");
    if (Dash != StringRef::npos && Before[Dash] == '-')
      return offsetLoc(Dash);
    return loc(N);
  }

  /// Text that sonde puts on one line of a source (a selector, spec code, a
  /// name) is written on one line of the spec too, where its errors are
  /// located by column. False, after an error, when it is not.
  bool oneLine(const YAML::Node &V, StringRef Key) {
    size_t I = textPos(V);
    if (I == StringRef::npos || !V.IsScalar())
      return true;
    StringRef Buf = buffer();
    char C = Buf[I];
    std::string What = Key == "at" ? "a selector" : "'" + Key.str() + "'";
    if (C == '|' || C == '>') {
      error(offsetLoc(I),
            What + " is written on one line, in quotes ('" + Key +
                ": \"...\"'), not as a '" + Twine(C) + "' block",
            1);
      return false;
    }
    if (C == '"' || C == '\'') {
      if (quoteClosesOnLine(I))
        return true;
      error(offsetLoc(I), Key == "at"
                              ? "the selector's quote is not closed on its "
                                "line, so the lines below became part of it"
                              : "the quote of '" + Key +
                                    "' is not closed on its line, so the "
                                    "lines below became part of it");
      return false;
    }
    if (!Buf.substr(I).starts_with(V.Scalar())) {
      error(offsetLoc(I),
            What + " continues on the next line; write it on one line");
      return false;
    }
    return true;
  }

  /// Spec code (`when`, an `args` value, `model`): one line, one
  /// expression.
  bool checkSpecCode(const YAML::Node &V, StringRef Key,
                     const std::string &What) {
    if (!oneLine(V, Key))
      return false;
    std::optional<CodeProblem> Pr = specCodeProblem(V.Scalar(), What);
    if (!Pr)
      return true;
    SpecLoc L = valueLoc(V);
    L.Col += Pr->Offset;
    error(L, Pr->Message, Pr->Length);
    return false;
  }

  /// Whether the quoted scalar whose opening quote is at `Pos` ends on the
  /// line it starts on (an unclosed quote folds the following lines into
  /// the value).
  bool quoteClosesOnLine(size_t Pos) const {
    StringRef Buf = buffer();
    char Q = Buf[Pos];
    for (size_t I = Pos + 1; I < Buf.size() && Buf[I] != '\n'; ++I) {
      if (Q == '"' && Buf[I] == '\\') {
        ++I;
        continue;
      }
      if (Buf[I] == Q) {
        if (Q == '\'' && I + 1 < Buf.size() && Buf[I + 1] == '\'') {
          ++I;
          continue;
        }
        return true;
      }
    }
    return false;
  }

  void error(SpecLoc L, const Twine &Msg, unsigned Len = 0,
             StringRef FixIt = "") {
    HasErrors = true;
    Diags.push_back(S.diag(L, SourceMgr::DK_Error, Msg, Len, FixIt));
  }

  /// yaml-cpp keeps both entries of a repeated key; a spec must not.
  /// An explicit tag (`!!binary`, `!custom`) asks for a type or meaning a
  /// probe spec does not have: sonde would read the text beside it as if
  /// it were not there. yaml-cpp gives untagged nodes "?" (plain) or "!"
  /// (quoted).
  bool checkTags(const YAML::Node &N) {
    const std::string &Tag = N.Tag();
    if (!Tag.empty() && Tag != "?" && Tag != "!") {
      StringRef Core = "tag:yaml.org,2002:";
      std::string Shown = StringRef(Tag).starts_with(Core)
                              ? "!!" + Tag.substr(Core.size())
                              : Tag;
      error(loc(N), "YAML tags ('" + Shown +
                        "') are not supported; a probe "
                        "spec holds plain strings, numbers and booleans");
      return false;
    }
    if (N.IsMap()) {
      for (auto It = N.begin(); It != N.end(); ++It)
        if (!checkTags(It->first) || !checkTags(It->second))
          return false;
    } else if (N.IsSequence()) {
      for (const YAML::Node &E : N)
        if (!checkTags(E))
          return false;
    }
    return true;
  }

  void checkDuplicates(const YAML::Node &Map) {
    std::map<std::string, SpecLoc> Seen;
    for (auto It = Map.begin(); It != Map.end(); ++It) {
      if (!It->first.IsScalar())
        continue;
      std::string K = It->first.Scalar();
      SpecLoc L = loc(It->first);
      auto [Prev, New] = Seen.insert({K, L});
      if (!New)
        error(L,
              "duplicate key '" + K + "' (first given on line " +
                  Twine(Prev->second.Line) + ")",
              K.size());
    }
  }

  bool checkKey(const YAML::Node &Key, ArrayRef<const char *> Allowed,
                StringRef What) {
    std::string K = Key.IsScalar() ? Key.Scalar() : "";
    LastSuggestion.clear();
    if (is_contained(Allowed, StringRef(K)))
      return true;
    if (K == "<<") {
      error(loc(Key),
            "YAML merge keys ('<<') are not supported; write the keys in "
            "each entry",
            2);
      return false;
    }
    if (K.empty()) {
      error(loc(Key), "a key here is a name: one of " + join(Allowed, ", "));
      return false;
    }
    std::string Best = nearest(K, Allowed);
    LastSuggestion = Best;
    std::string Msg = "unknown " + What.str() + " '" + K + "'";
    if (!Best.empty())
      Msg += "; did you mean '" + Best + "'?";
    else
      Msg += "; expected one of " + join(Allowed, ", ");
    error(loc(Key), Msg, K.size(), Best);
    return false;
  }

  void loadVersion(const YAML::Node &V) {
    unsigned N = 0;
    double D;
    if (V.IsScalar() && StringRef(V.Scalar()).getAsInteger(10, N) &&
        !StringRef(V.Scalar()).getAsDouble(D)) {
      // `1.0`, `2e3`, a huge number.
      error(valueLoc(V),
            "unsupported spec version '" + V.Scalar() +
                "'; this sonde reads version 1",
            V.Scalar().size(), "1");
      return;
    }
    if (!V.IsScalar() || StringRef(V.Scalar()).getAsInteger(10, N)) {
      error(valueLoc(V), "'version' is a number: 'version: 1'");
      return;
    }
    if (N != 1)
      error(valueLoc(V),
            "unsupported spec version " + Twine(N) +
                "; this sonde reads version 1",
            V.Scalar().size(), "1");
    S.Version = N;
  }

  void loadScope(const YAML::Node &V) {
    if (V.IsNull())
      return;
    if (!V.IsSequence()) {
      error(loc(V), "'scope' is a list of rules ('- exclude: {file: ...}')");
      return;
    }
    for (const YAML::Node &R : V) {
      if (!R.IsMap() || R.size() != 1) {
        error(loc(R), "a scope rule is one 'include:' or 'exclude:' with "
                      "'file' and/or 'function'");
        continue;
      }
      auto It = R.begin();
      if (!checkKey(It->first, ScopeKeys, "scope rule"))
        continue;
      ScopeRule Rule;
      Rule.Include = It->first.Scalar() == "include";
      const YAML::Node Body =
          It->second; // a copy: It-> returns a temporary proxy
      std::string Kind = It->first.Scalar();
      if (Body.IsScalar()) {
        // `- exclude: "*/third_party/*"` names files.
        if (!scopeGlob(Body, "file", Kind))
          continue;
        Rule.FileGlob = Body.Scalar();
      } else if (Body.IsMap()) {
        bool Ok = true;
        for (auto F = Body.begin(); F != Body.end(); ++F) {
          if (!checkKey(F->first, ScopeRuleKeys, "scope key")) {
            Ok = false;
            continue;
          }
          const YAML::Node G = F->second; // a copy: F-> returns a proxy
          std::string Key = F->first.Scalar();
          if (G.IsNull()) {
            error(loc(F->first), "'" + Key + "' has no value", Key.size());
            Ok = false;
            continue;
          }
          if (!G.IsScalar()) {
            error(loc(G), "'" + Key + "' is a glob");
            Ok = false;
            continue;
          }
          if (!scopeGlob(G, Key, Kind)) {
            Ok = false;
            continue;
          }
          (Key == "file" ? Rule.FileGlob : Rule.FunctionGlob) = G.Scalar();
        }
        if (!Ok)
          continue;
        if (Rule.FileGlob.empty() && Rule.FunctionGlob.empty()) {
          error(loc(Body),
                "this '" + Kind +
                    "' rule names no 'file' or 'function', so it would " +
                    Kind + " everything");
          continue;
        }
      } else if (Body.IsNull()) {
        error(loc(It->first), "'" + Kind + "' has no value", Kind.size());
        continue;
      } else {
        error(loc(Body), "expected '{file: GLOB, function: GLOB}'");
        continue;
      }
      S.Scope.push_back(Rule);
    }
  }

  /// A scope rule's glob: not empty, and a function glob is one
  /// qualified-name glob (what `F` is in a selector).
  bool scopeGlob(const YAML::Node &G, StringRef Key, StringRef Kind) {
    StringRef T = G.Scalar();
    if (T.trim().empty()) {
      error(valueLoc(G),
            "an empty '" + Key + "' glob; it would " + Kind + " everything",
            T.size());
      return false;
    }
    if (Key != "function")
      return true;
    Expected<Selector> Sel = parseSelector(T);
    if (!Sel) {
      handleAllErrors(Sel.takeError(), [&](const SelectorError &E) {
        SpecLoc L = valueLoc(G);
        error(SpecLoc{L.Line, unsigned(L.Col + E.Offset)}, E.Message,
              std::max(1u, E.Length), E.FixIt);
      });
      return false;
    }
    const Frame *F = Sel->Frames.size() == 1 ? &Sel->Frames[0] : nullptr;
    if (F && F->Func && F->Func->FileGlob.empty() && !F->HasParens)
      return true;
    std::string Fix;
    if (Sel->Frames.size() == 1 && !Sel->Frames[0].Items.empty() &&
        Sel->Frames[0].Items[0].Kind == TargetKind::Call &&
        Sel->Frames[0].Items[0].As.empty())
      Fix = Sel->Frames[0].Items[0].Callee.Glob;
    error(valueLoc(G),
          "'function' is a qualified-name glob ('train', 'ns::*', "
          "'*::forward'), not a selector" +
              (Fix.empty() ? std::string() : "; did you mean '" + Fix + "'?"),
          T.size(), Fix);
    return false;
  }

  bool scalar(const YAML::Node &V, StringRef Key, std::string &Out) {
    if (!V.IsScalar()) {
      size_t I = textPos(V);
      char C = I == StringRef::npos ? 0 : buffer()[I];
      error(loc(V),
            "'" + Key + "' is a string" +
                (C == '[' || C == '{'
                     ? "; a value that starts with '" + Twine(C) +
                           "' is a YAML " + (C == '[' ? "list" : "map") +
                           ": write it in quotes"
                     : Twine()));
      return false;
    }
    Out = V.Scalar();
    return true;
  }

  bool boolean(const YAML::Node &V, StringRef Key, bool &Out) {
    std::string T;
    if (V.IsScalar())
      T = V.Scalar();
    // YAML's spellings: true, True, TRUE (and 1.1's yes and on).
    auto Is = [&](StringRef W) {
      return T == W || T == W.upper() ||
             T == (Twine(char(toUpper(W[0]))) + W.drop_front()).str();
    };
    if (Is("true") || Is("yes") || Is("on")) {
      Out = true;
      return true;
    }
    if (Is("false") || Is("no") || Is("off")) {
      Out = false;
      return true;
    }
    error(valueLoc(V), "'" + Key + "' is 'true' or 'false'", T.size());
    return false;
  }

  bool checkCategory(Probe &P, const YAML::Node &V) {
    StringRef C = P.Category;
    if (is_contained(Categories, C))
      return true;
    if (C.starts_with("user.") && C.size() > 5)
      return true;
    StringRef Parent = C.split('.').first;
    if (C.ends_with(".init") && C.count('.') == 1 &&
        is_contained(Categories, Parent))
      return true;
    std::string Best = nearest(C, Categories);
    std::string Msg = "unknown category '" + C.str() + "'";
    if (!Best.empty())
      Msg += "; did you mean '" + Best + "'?";
    else
      Msg += "; use a DFTracer AI category (compute.forward, "
             "dataloader.fetch, ...), a parent ('compute'), "
             "'<parent>.init', or 'user.<anything>'";
    error(valueLoc(V), Msg, C.size(), Best);
    return false;
  }

  void checkIdentifier(const YAML::Node &Key, StringRef What) {
    StringRef K = Key.Scalar();
    bool Ok = !K.empty() && (isAlpha(K[0]) || K[0] == '_');
    for (char C : K)
      Ok &= isAlnum(C) || C == '_' || C == '.';
    if (!Ok)
      error(loc(Key), What + " '" + K + "' must be an identifier", K.size());
  }

  void loadProbe(const YAML::Node &N, Section Sec) {
    if (!N.IsMap()) {
      error(entryLoc(N), "a probe is a map with at least 'at'");
      return;
    }
    checkDuplicates(N);
    Probe P;
    P.Sec = Sec;
    P.Index = S.Probes.size();
    bool HasAt = false, AtGiven = false;
    YAML::Node AtNode, SummaryNode, ModeNode;
    bool HasSummary = false, HasMode = false;
    bool IsState = Sec == Section::State;
    bool AtMisspelt = false;
    std::vector<SpecLoc> ArgKeyLocs; // of each of P.Args
    if (IsState)
      P.Category = "state";
    for (auto It = N.begin(); It != N.end(); ++It) {
      if (IsState ? !checkKey(It->first, StateKeys, "state key")
                  : !checkKey(It->first, ProbeKeys, "probe key")) {
        AtMisspelt |= LastSuggestion == "at";
        continue;
      }
      std::string Key = It->first.Scalar();
      const YAML::Node V = It->second; // a copy: It-> returns a temporary proxy
      if (V.IsNull() && Key != "at") {
        // yaml-cpp marks an empty value at the next line.
        error(loc(It->first), noValue(It->first, Key), Key.size());
        continue;
      }
      if (Key == "at") {
        AtNode = V;
        AtGiven = true;
        if (V.IsNull()) {
          error(loc(It->first),
                "'at' has no value; it is the selector: 'at: \"train > "
                "loss\"'",
                2);
          continue;
        }
        HasAt = scalar(V, Key, P.At);
        P.AtLoc = valueLoc(V);
        // An unclosed quote runs on to the end of the file.
        if (HasAt && !oneLine(V, Key))
          return;
        if (HasAt && StringRef(P.At).find_first_of("\r\n") != StringRef::npos) {
          error(P.AtLoc, "the selector holds a line break");
          return;
        }
      } else if (Key == "category") {
        if (scalar(V, Key, P.Category)) {
          P.CategoryLoc = valueLoc(V);
          if (checkCategory(P, V))
            checkPrintable(V, Key);
        }
      } else if (Key == "name") {
        if (scalar(V, Key, P.Name) && oneLine(V, Key))
          checkName(V);
      } else if (Key == "when") {
        if (scalar(V, Key, P.When))
          checkSpecCode(V, Key, "'" + Key + "'");
        P.WhenLoc = valueLoc(V);
      } else if (Key == "model") {
        if (scalar(V, Key, P.Model)) {
          if (P.Model.empty())
            error(valueLoc(V), "'model' needs a C++ expression naming the "
                               "model ('model', '*net')");
          else
            checkSpecCode(V, Key, "'" + Key + "'");
        }
        P.ModelLoc = valueLoc(V);
      } else if (Key == "context") {
        bool B;
        if (boolean(V, Key, B))
          P.Context = B;
      } else if (Key == "enabled") {
        boolean(V, Key, P.Enabled);
      } else if (Key == "every") {
        loadEvery(V, P);
      } else if (Key == "summary") {
        static const char *const Kinds[] = {"value", "shape", "stats", "hash",
                                            "full"};
        static const char *const StateKinds[] = {"stats", "hash"};
        if (!loadSummary(V, Key,
                         IsState ? ArrayRef<const char *>(StateKinds)
                                 : ArrayRef<const char *>(Kinds),
                         P))
          continue;
        SummaryNode = V;
        HasSummary = true;
      } else if (Key == "mode") {
        std::string T;
        if (!scalar(V, Key, T))
          continue;
        if (T == "region")
          P.Mode = ModeKind::Region;
        else if (T == "instant")
          P.Mode = ModeKind::Instant;
        else
          error(valueLoc(V),
                "unknown mode '" + T + "'; expected 'region' or 'instant'",
                T.size(), T.size() && T[0] == 'i' ? "instant" : "region");
        ModeNode = V;
        HasMode = true;
      } else if (Key == "args") {
        if (!V.IsMap()) {
          error(loc(V), "'args' is a map of name to C++ expression: "
                        "'{epoch: epoch}'");
          continue;
        }
        checkDuplicates(V);
        for (auto A = V.begin(); A != V.end(); ++A) {
          checkIdentifier(A->first, "arg name");
          ArgKeyLocs.push_back(loc(A->first));
          SpecArg Arg;
          Arg.Name = A->first.Scalar();
          if (!A->second.IsScalar() || A->second.Scalar().empty()) {
            error(loc(A->second),
                  "arg '" + Arg.Name + "' needs a C++ expression");
            continue;
          }
          Arg.Expr = A->second.Scalar();
          Arg.ExprLoc = valueLoc(A->second);
          checkSpecCode(A->second, "args", "arg '" + Arg.Name + "'");
          P.Args.push_back(std::move(Arg));
        }
      }
    }
    if (!HasAt) {
      // `At:` or `at_:` was already answered with "did you mean 'at'?".
      if (!AtGiven && !AtMisspelt)
        error(loc(N), "probe has no 'at' selector");
      return;
    }
    auto Sel = parseSelector(P.At);
    Expected<Query> Q =
        Sel ? normalize(*Sel) : Expected<Query>(Sel.takeError());
    if (!Q) {
      // `at: train > #loop_x` unquoted: YAML took ` #...` as a comment.
      std::string Hint;
      size_t I = textPos(AtNode);
      if (I != StringRef::npos && buffer()[I] != '"' && buffer()[I] != '\'') {
        StringRef After = buffer().substr(I + P.At.size()).split('\n').first;
        if (After.ltrim(" \t").starts_with("#") && After.starts_with(" "))
          Hint = "; the rest of the line, from ' #', is a YAML comment: "
                 "write the selector in quotes";
      }
      handleAllErrors(Q.takeError(), [&](const SelectorError &E) {
        error(S.selectorLoc(P, E.Offset), E.Message + Hint,
              std::max(1u, E.Length), E.FixIt);
      });
      return;
    }
    P.Q = std::move(*Q);
    // Captures and args land in one record, under their names.
    std::map<std::string, std::string> Recorded; // name -> what it is
    for (const Item &C : P.Q.Captures) {
      const std::string &Name = C.As.empty() ? C.Name : C.As;
      if (!Recorded.insert({Name, "capture '" + C.Name + "'"}).second)
        error(S.selectorLoc(P, C.Offset),
              "'" + Name + "' is recorded twice in each event (" +
                  Recorded[Name] + " and capture '" + C.Name +
                  "'); rename one with 'as'",
              C.Length);
    }
    for (size_t I = 0; I < P.Args.size(); ++I) {
      const std::string &Name = P.Args[I].Name;
      auto [It, New] = Recorded.insert({Name, "arg '" + Name + "'"});
      // Two args of one name are duplicate keys, said already.
      if (!New && I < ArgKeyLocs.size() &&
          StringRef(It->second).starts_with("capture"))
        error(ArgKeyLocs[I],
              "'" + Name + "' is recorded twice in each event (" + It->second +
                  " and this arg); rename the arg",
              Name.size());
    }
    if (IsState) {
      if (!checkState(P, N))
        return;
    } else {
      checkSection(P, HasSummary ? &SummaryNode : nullptr,
                   HasMode ? &ModeNode : nullptr);
    }
    S.Probes.push_back(std::move(P));
  }

  void loadEvery(const YAML::Node &V, Probe &P) {
    std::string T;
    if (!V.IsScalar() || StringRef(T = V.Scalar()).getAsInteger(10, P.Every) ||
        P.Every == 0) {
      bool Digits = !T.empty() && all_of(T, isDigit) && T.size() > 9;
      error(valueLoc(V),
            Digits ? "'every' is at most " +
                         Twine(std::numeric_limits<unsigned>::max())
                   : Twine("'every' is a positive integer"),
            T.size());
    }
  }

  /// An event name: printable, and not empty (no `name:` gives the default).
  void checkName(const YAML::Node &V) {
    if (V.Scalar().empty()) {
      error(valueLoc(V),
            "'name' is empty; remove it to name the event after its "
            "category or function");
      return;
    }
    checkPrintable(V, "name");
  }

  /// Names that go into the trace as they are (a `name`, a `user.`
  /// category).
  void checkPrintable(const YAML::Node &V, StringRef Key) {
    StringRef N = V.Scalar();
    for (size_t I = 0; I < N.size(); ++I)
      if ((unsigned char)N[I] < 0x20 || N[I] == 0x7f) {
        error(valueLoc(V),
              "'" + Key + "' holds a control character (0x" +
                  toHex(N.substr(I, 1), /*LowerCase=*/true) +
                  "); it is printable text",
              N.size());
        return;
      }
  }

  /// A summary name among `Kinds`; SummaryKind numbers them as the full list
  /// (value, shape, stats, hash, full).
  bool loadSummary(const YAML::Node &V, StringRef Key,
                   ArrayRef<const char *> Kinds, Probe &P) {
    std::string T;
    if (!scalar(V, Key, T))
      return false;
    if (!is_contained(Kinds, StringRef(T))) {
      std::string Best = nearest(T, Kinds);
      error(valueLoc(V),
            "unknown " + Key.str() + " '" + T + "'" +
                (Best.empty() ? "; expected " + join(Kinds, ", ")
                              : "; did you mean '" + Best + "'?"),
            T.size(), Best);
      return false;
    }
    static const char *const All[] = {"value", "shape", "stats", "hash",
                                      "full"};
    P.Summary = SummaryKind(1 + (find(All, StringRef(T)) - std::begin(All)));
    return true;
  }

  /// `state:` records after a point: a call site (after its statement),
  /// `#enter`, `#exit`, or the start or end of a loop's iterations.
  bool checkState(Probe &P, const YAML::Node &N) {
    const Query &Q = P.Q;
    const Item &I = Q.FocusItem;
    bool Point = Q.Focus == FocusKind::Item &&
                 (I.Kind == TargetKind::Call || I.Meta == MetaKind::Enter ||
                  I.Meta == MetaKind::Exit || I.Meta == MetaKind::LoopVar ||
                  I.Meta == MetaKind::EndLoopVar);
    bool Ok = true;
    if (!Point) {
      error(P.AtLoc,
            "'" + P.At +
                "' is not a point where state can be recorded; use a call "
                "site ('train_epoch > *::step()'), '#enter', '#exit', "
                "'#loop_X' or '#endloop_X'",
            P.At.size());
      Ok = false;
    }
    if (P.Model.empty()) {
      if (!N["model"])
        error(loc(N), "state entry has no 'model' (the C++ expression "
                      "naming the model, e.g. 'model: model')");
      Ok = false;
    }
    if (P.Summary == SummaryKind::Default)
      P.Summary = SummaryKind::Stats;
    return Ok;
  }

  void loadTorchOps(const YAML::Node &V) {
    S.Ops.Loc = valueLoc(V);
    if (V.IsMap()) {
      S.Ops.On = true;
      for (auto It = V.begin(); It != V.end(); ++It) {
        if (!checkKey(It->first, TorchOpsKeys, "torch_ops key"))
          continue;
        if (It->second.IsNull())
          error(loc(It->first), "'shapes' has no value", 6);
        else
          boolean(It->second, "shapes", S.Ops.Shapes);
      }
      return;
    }
    if (!V.IsScalar()) {
      error(loc(V), "'torch_ops' is 'true', 'false' or '{shapes: true}'");
      return;
    }
    boolean(V, "torch_ops", S.Ops.On);
  }

  /// An `apis:` entry: `call:` a callee glob, `within:` a function
  /// selector. Held as the call-site query `WITHIN > CALL()`.
  void loadApi(const YAML::Node &N) {
    if (!N.IsMap()) {
      error(entryLoc(N), "an 'apis' entry is a map with at least 'call'");
      return;
    }
    Probe P;
    P.Sec = Section::Apis;
    P.Index = S.Probes.size();
    P.Category = "api";
    P.Summary = SummaryKind::Shape;
    std::string Call, Within;
    SpecLoc CallLoc, WithinLoc;
    bool HasCall = false, HasWithin = false;
    for (auto It = N.begin(); It != N.end(); ++It) {
      if (!checkKey(It->first, ApiKeys, "apis key"))
        continue;
      std::string Key = It->first.Scalar();
      const YAML::Node V = It->second; // a copy: It-> returns a temporary proxy
      if (V.IsNull()) {
        error(loc(It->first), "'" + Key + "' has no value", Key.size());
        if (Key == "call")
          return;
        continue;
      }
      if (Key == "call") {
        HasCall = scalar(V, Key, Call) && oneLine(V, Key);
        CallLoc = valueLoc(V);
        if (!HasCall)
          return;
      } else if (Key == "within") {
        HasWithin = scalar(V, Key, Within) && oneLine(V, Key);
        WithinLoc = valueLoc(V);
        if (!HasWithin)
          return;
      } else if (Key == "when") {
        if (scalar(V, Key, P.When))
          checkSpecCode(V, Key, "'" + Key + "'");
        P.WhenLoc = valueLoc(V);
      } else if (Key == "enabled") {
        boolean(V, Key, P.Enabled);
      } else if (Key == "every") {
        loadEvery(V, P);
      } else if (Key == "args") {
        std::string T;
        if (V.IsScalar() && V.Scalar() == "none") {
          P.ApiArgs = false;
          continue;
        }
        static const char *const Kinds[] = {"shape", "stats", "hash", "none"};
        loadSummary(V, Key, Kinds, P);
      }
    }
    if (!HasCall) {
      if (!N["call"])
        error(loc(N), "'apis' entry has no 'call' (a callee glob such as "
                      "'*::step' or 'torch::*')");
      return;
    }
    // The callee: one qualified-name glob; `()` may be written.
    StringRef C = StringRef(Call).trim();
    C.consume_back("()");
    if (C.trim().empty()) {
      error(CallLoc, "'call' is empty; write a callee glob such as "
                     "'*::step' or 'torch::*'");
      return;
    }
    auto Located = [&](SpecLoc Base, const SelectorError &E) {
      error(SpecLoc{Base.Line, Base.Col + E.Offset}, E.Message,
            std::max(1u, E.Length), E.FixIt);
    };
    Expected<Selector> CS = parseSelector(C);
    if (!CS) {
      handleAllErrors(CS.takeError(),
                      [&](const SelectorError &E) { Located(CallLoc, E); });
      return;
    }
    if (CS->Frames.size() != 1 || !CS->Frames[0].Func ||
        CS->Frames[0].HasParens || C.empty()) {
      error(CallLoc,
            "'call' is a callee glob such as 'torch::*', '*::step' or "
            "'torch::nn::functional::*'; put the calling function in "
            "'within'",
            Call.size());
      return;
    }
    Query Q;
    Q.Host = FuncGlob{"*", "", 0, 0};
    if (HasWithin) {
      Expected<Selector> WS = parseSelector(Within);
      Expected<Query> WQ =
          WS ? normalize(*WS) : Expected<Query>(WS.takeError());
      if (!WQ) {
        handleAllErrors(WQ.takeError(),
                        [&](const SelectorError &E) { Located(WithinLoc, E); });
        return;
      }
      // `train > step` reads its bare last frame as a variable of train:
      // here it names a function.
      const Item &FI = WQ->FocusItem;
      if (WQ->Focus == FocusKind::Item && FI.Kind == TargetKind::Variable &&
          FI.Type.empty() && FI.As.empty() && WQ->Captures.empty()) {
        WQ->Context.push_back(WQ->Host);
        WQ->Host = FuncGlob{FI.Name, "", FI.Offset, FI.Length};
        WQ->Focus = FocusKind::Function;
      }
      if (WQ->Focus != FocusKind::Function || !WQ->Captures.empty()) {
        error(WithinLoc,
              "'within' is a function selector ('train_epoch', "
              "'train > Trainer::*'), not '" +
                  Within + "'",
              Within.size());
        return;
      }
      Q.Context = WQ->Context;
      Q.Host = WQ->Host;
    }
    Q.Focus = FocusKind::Item;
    Q.FocusItem.Kind = TargetKind::Call;
    Q.FocusItem.Callee = *CS->Frames[0].Func;
    P.Q = std::move(Q);
    P.At = (HasWithin ? Within + " > " : "") + C.str() + "()";
    P.AtLoc = CallLoc;
    S.Probes.push_back(std::move(P));
  }

  /// Regions go under `probes:`, values under `watches:`.
  void checkSection(const Probe &P, const YAML::Node *SummaryNode,
                    const YAML::Node *ModeNode) {
    const Query &Q = P.Q;
    bool IsValue = Q.Focus == FocusKind::Item &&
                   (Q.FocusItem.Kind == TargetKind::Variable ||
                    Q.FocusItem.Kind == TargetKind::AnyVariable ||
                    Q.FocusItem.Kind == TargetKind::Star ||
                    Q.FocusItem.Meta == MetaKind::Value);
    bool IsRegion =
        Q.Focus != FocusKind::Item || Q.FocusItem.Kind == TargetKind::Call;
    if (P.Sec == Section::Probes && IsValue)
      error(P.AtLoc,
            "'" + Q.FocusItem.spelling() +
                "' is a value; move this probe under 'watches:'",
            P.At.size());
    if (P.Sec == Section::Watches && IsRegion) {
      // A lone name is a function; under `watches:` it was meant as a
      // variable.
      bool LoneName = Q.Focus == FocusKind::Function && Q.Context.empty() &&
                      Q.Captures.empty() &&
                      clang::isValidAsciiIdentifier(Q.Host.Glob);
      error(P.AtLoc,
            LoneName
                ? "'" + P.At +
                      "' names a function (a region); to watch "
                      "a variable, name its function: 'F > " +
                      P.At + "'; regions go under 'probes:'"
                : "'" + P.At + "' is a region; move this probe under 'probes:'",
            P.At.size());
    }
    if (P.Sec == Section::Probes && SummaryNode)
      error(valueLoc(*SummaryNode), "'summary' applies to watches only",
            SummaryNode->Scalar().size());
    if (P.Sec == Section::Watches && ModeNode)
      error(valueLoc(*ModeNode), "'mode' applies to regions under 'probes:'",
            ModeNode->Scalar().size());
  }
};

} // namespace

bool Probe::contextArgs() const {
  if (Context)
    return *Context;
  return StringRef(Category).starts_with("pipeline.");
}

bool Spec::inScope(StringRef File, StringRef QualifiedName) const {
  bool In = true;
  for (const ScopeRule &R : Scope) {
    bool FileOk = R.FileGlob.empty() || globMatch(R.FileGlob, File) ||
                  globMatch("*/" + R.FileGlob, File);
    bool FuncOk = R.FunctionGlob.empty() ||
                  FuncGlob{R.FunctionGlob, "", 0, 0}.matches(QualifiedName);
    if (FileOk && FuncOk)
      In = R.Include;
  }
  return In;
}

SpecLoc Spec::selectorLoc(const Probe &P, unsigned Offset) const {
  return SpecLoc{P.AtLoc.Line, P.AtLoc.Col + Offset};
}

SMDiagnostic Spec::diag(SpecLoc L, SourceMgr::DiagKind Kind, const Twine &Msg,
                        unsigned Length, StringRef FixIt) const {
  if (!SM || L.Line == 0)
    return SMDiagnostic(Path, Kind, Msg.str());
  const MemoryBuffer *Buf = SM->getMemoryBuffer(1);
  SMLoc Loc = SM->FindLocForLineAndColumn(1, L.Line, L.Col);
  if (!Loc.isValid())
    return SMDiagnostic(Path, Kind, Msg.str());
  // Keep the caret range on the line.
  const char *End = Loc.getPointer();
  while (Length && End < Buf->getBufferEnd() && *End != '\n') {
    ++End;
    --Length;
  }
  SmallVector<SMRange, 1> Ranges;
  if (End > Loc.getPointer() + 1)
    Ranges.push_back(SMRange(Loc, SMLoc::getFromPointer(End)));
  SmallVector<SMFixIt, 1> Fixes;
  if (!FixIt.empty() && End > Loc.getPointer())
    Fixes.push_back(SMFixIt(SMRange(Loc, SMLoc::getFromPointer(End)), FixIt));
  return SM->GetMessage(Loc, Kind, Msg, Ranges, Fixes);
}

ArrayRef<const char *> knownCategories() { return Categories; }

Expected<Spec> parseSpec(StringRef Text, StringRef Path) {
  // yaml-cpp skips a byte-order mark and counts positions after it; so do
  // the diagnostics.
  Text.consume_front("\xef\xbb\xbf");
  Spec S;
  S.Path = Path.str();
  S.SM = std::make_shared<SourceMgr>();
  S.SM->AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Path), SMLoc());
  Loader L(S);
  L.load(Text);
  if (L.HasErrors)
    return make_error<SpecDiagnostics>(std::move(L.Diags));
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
