//===- ScopeLoader.cpp - The scope: rules ---------------------------------===//
//
// `scope:` is a list of `include:` and `exclude:` rules, each naming files
// and/or functions by glob (Spec::inScope applies them). A function glob is
// one qualified-name glob, what a selector's function frame is, so it is
// checked with the selector parser.
//
//===----------------------------------------------------------------------===//

#include "SpecLoaders.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

const char *const ScopeKeys[] = {"include", "exclude"};
const char *const ScopeRuleKeys[] = {"file", "function"};

/// A scope rule's glob: not empty, and a function glob is one
/// qualified-name glob (what `F` is in a selector).
bool scopeGlob(SpecChecks &C, const YAML::Node &G, StringRef Key,
               StringRef Kind) {
  StringRef T = G.Scalar();
  if (T.trim().empty()) {
    C.error(C.Pos.valueLoc(G),
            "an empty '" + Key + "' glob; it would " + Kind + " everything",
            T.size());
    return false;
  }
  if (Key != "function")
    return true;
  Expected<Selector> Sel = parseSelector(T);
  if (!Sel) {
    handleAllErrors(Sel.takeError(), [&](const SelectorError &E) {
      C.selectorError(C.Pos.valueLoc(G), E);
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
  C.error(C.Pos.valueLoc(G),
          "'function' is a qualified-name glob ('train', 'ns::*', "
          "'*::forward'), not a selector" +
              (Fix.empty() ? std::string() : "; did you mean '" + Fix + "'?"),
          T.size(), Fix);
  return false;
}

} // namespace

void loadScope(SpecChecks &C, const YAML::Node &V) {
  if (V.IsNull())
    return;
  if (!V.IsSequence()) {
    C.error(C.Pos.loc(V),
            "'scope' is a list of rules ('- exclude: {file: ...}')");
    return;
  }
  for (const YAML::Node &R : V) {
    if (!R.IsMap() || R.size() != 1) {
      C.error(C.Pos.loc(R), "a scope rule is one 'include:' or 'exclude:' "
                            "with 'file' and/or 'function'");
      continue;
    }
    auto It = R.begin();
    if (!C.checkKey(It->first, ScopeKeys, "scope rule"))
      continue;
    ScopeRule Rule;
    Rule.Include = It->first.Scalar() == "include";
    const YAML::Node Body = It->second; // a copy: It-> returns a proxy
    std::string Kind = It->first.Scalar();
    if (Body.IsScalar()) {
      // `- exclude: "*/third_party/*"` names files.
      if (!scopeGlob(C, Body, "file", Kind))
        continue;
      Rule.FileGlob = Body.Scalar();
    } else if (Body.IsMap()) {
      bool Ok = true;
      for (auto F = Body.begin(); F != Body.end(); ++F) {
        if (!C.checkKey(F->first, ScopeRuleKeys, "scope key")) {
          Ok = false;
          continue;
        }
        const YAML::Node G = F->second; // a copy: F-> returns a proxy
        std::string Key = F->first.Scalar();
        if (G.IsNull()) {
          C.error(C.Pos.loc(F->first), "'" + Key + "' has no value",
                  Key.size());
          Ok = false;
          continue;
        }
        if (!G.IsScalar()) {
          C.error(C.Pos.loc(G), "'" + Key + "' is a glob");
          Ok = false;
          continue;
        }
        if (!scopeGlob(C, G, Key, Kind)) {
          Ok = false;
          continue;
        }
        (Key == "file" ? Rule.FileGlob : Rule.FunctionGlob) = G.Scalar();
      }
      if (!Ok)
        continue;
      if (Rule.FileGlob.empty() && Rule.FunctionGlob.empty()) {
        C.error(C.Pos.loc(Body),
                "this '" + Kind +
                    "' rule names no 'file' or 'function', so it would " +
                    Kind + " everything");
        continue;
      }
    } else if (Body.IsNull()) {
      C.error(C.Pos.loc(It->first), "'" + Kind + "' has no value", Kind.size());
      continue;
    } else {
      C.error(C.Pos.loc(Body), "expected '{file: GLOB, function: GLOB}'");
      continue;
    }
    C.S.Scope.push_back(Rule);
  }
}

} // namespace rewriter
} // namespace sonde
