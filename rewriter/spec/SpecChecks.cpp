//===- SpecChecks.cpp - The checks every spec section shares --------------===//
//
// See SpecChecks.h. The categories a spec may name live here too: checking
// them is one of the shared checks.
//
//===----------------------------------------------------------------------===//

#include "SpecChecks.h"
#include "SpecText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace llvm;

namespace sonde {
namespace rewriter {

using namespace spectext;

namespace {

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

} // namespace

ArrayRef<const char *> knownCategories() { return Categories; }

SpecChecks::SpecChecks(Spec &S)
    : S(S), Pos(S.SM->getMemoryBuffer(1)->getBuffer()) {}

void SpecChecks::error(SpecLoc L, const Twine &Msg, unsigned Len,
                       StringRef FixIt) {
  HasErrors = true;
  Diags.push_back(S.diag(L, SourceMgr::DK_Error, Msg, Len, FixIt));
}

void SpecChecks::selectorError(SpecLoc Base, const SelectorError &E,
                               StringRef Hint) {
  error(SpecLoc{Base.Line, unsigned(Base.Col + E.Offset)},
        Twine(E.Message) + Hint, std::max(1u, E.Length), E.FixIt);
}

// yaml-cpp gives untagged nodes "?" (plain) or "!" (quoted).
bool SpecChecks::checkTags(const YAML::Node &N) {
  const std::string &Tag = N.Tag();
  if (!Tag.empty() && Tag != "?" && Tag != "!") {
    StringRef Core = "tag:yaml.org,2002:";
    std::string Shown =
        StringRef(Tag).starts_with(Core) ? "!!" + Tag.substr(Core.size()) : Tag;
    error(Pos.loc(N), "YAML tags ('" + Shown +
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

void SpecChecks::checkDuplicates(const YAML::Node &Map) {
  std::map<std::string, SpecLoc> Seen;
  for (auto It = Map.begin(); It != Map.end(); ++It) {
    if (!It->first.IsScalar())
      continue;
    std::string K = It->first.Scalar();
    SpecLoc L = Pos.loc(It->first);
    auto [Prev, New] = Seen.insert({K, L});
    if (!New)
      error(L,
            "duplicate key '" + K + "' (first given on line " +
                Twine(Prev->second.Line) + ")",
            K.size());
  }
}

bool SpecChecks::checkKey(const YAML::Node &Key, ArrayRef<const char *> Allowed,
                          StringRef What) {
  std::string K = Key.IsScalar() ? Key.Scalar() : "";
  LastSuggestion.clear();
  if (is_contained(Allowed, StringRef(K)))
    return true;
  if (K == "<<") {
    error(Pos.loc(Key),
          "YAML merge keys ('<<') are not supported; write the keys in "
          "each entry",
          2);
    return false;
  }
  if (K.empty()) {
    error(Pos.loc(Key), "a key here is a name: one of " + join(Allowed, ", "));
    return false;
  }
  std::string Best = nearest(K, Allowed);
  LastSuggestion = Best;
  std::string Msg = "unknown " + What.str() + " '" + K + "'";
  if (!Best.empty())
    Msg += "; did you mean '" + Best + "'?";
  else
    Msg += "; expected one of " + join(Allowed, ", ");
  error(Pos.loc(Key), Msg, K.size(), Best);
  return false;
}

std::string SpecChecks::noValue(const YAML::Node &KeyNode,
                                StringRef Key) const {
  std::string Msg = "'" + Key.str() + "' has no value";
  YAML::Mark M = KeyNode.Mark();
  StringRef Buf = Pos.buffer();
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

bool SpecChecks::scalar(const YAML::Node &V, StringRef Key, std::string &Out) {
  if (!V.IsScalar()) {
    size_t I = Pos.textPos(V);
    char C = I == StringRef::npos ? 0 : Pos.buffer()[I];
    error(Pos.loc(V),
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

bool SpecChecks::boolean(const YAML::Node &V, StringRef Key, bool &Out) {
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
  error(Pos.valueLoc(V), "'" + Key + "' is 'true' or 'false'", T.size());
  return false;
}

bool SpecChecks::oneLine(const YAML::Node &V, StringRef Key) {
  size_t I = Pos.textPos(V);
  if (I == StringRef::npos || !V.IsScalar())
    return true;
  StringRef Buf = Pos.buffer();
  char C = Buf[I];
  std::string What = Key == "at" ? "a selector" : "'" + Key.str() + "'";
  if (C == '|' || C == '>') {
    error(Pos.offsetLoc(I),
          What + " is written on one line, in quotes ('" + Key +
              ": \"...\"'), not as a '" + Twine(C) + "' block",
          1);
    return false;
  }
  if (C == '"' || C == '\'') {
    if (Pos.quoteClosesOnLine(I))
      return true;
    error(Pos.offsetLoc(I), Key == "at"
                                ? "the selector's quote is not closed on its "
                                  "line, so the lines below became part of it"
                                : "the quote of '" + Key +
                                      "' is not closed on its line, so the "
                                      "lines below became part of it");
    return false;
  }
  if (!Buf.substr(I).starts_with(V.Scalar())) {
    error(Pos.offsetLoc(I),
          What + " continues on the next line; write it on one line");
    return false;
  }
  return true;
}

bool SpecChecks::checkSpecCode(const YAML::Node &V, StringRef Key,
                               const std::string &What) {
  if (!oneLine(V, Key))
    return false;
  std::optional<CodeProblem> Pr = specCodeProblem(V.Scalar(), What);
  if (!Pr)
    return true;
  SpecLoc L = Pos.valueLoc(V);
  L.Col += Pr->Offset;
  error(L, Pr->Message, Pr->Length);
  return false;
}

bool SpecChecks::checkCategory(StringRef C, const YAML::Node &V) {
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
  error(Pos.valueLoc(V), Msg, C.size(), Best);
  return false;
}

void SpecChecks::checkIdentifier(const YAML::Node &Key, StringRef What) {
  StringRef K = Key.Scalar();
  bool Ok = !K.empty() && (isAlpha(K[0]) || K[0] == '_');
  for (char C : K)
    Ok &= isAlnum(C) || C == '_' || C == '.';
  if (!Ok)
    error(Pos.loc(Key), What + " '" + K + "' must be an identifier", K.size());
}

void SpecChecks::checkName(const YAML::Node &V) {
  if (V.Scalar().empty()) {
    error(Pos.valueLoc(V),
          "'name' is empty; remove it to name the event after its "
          "category or function");
    return;
  }
  checkPrintable(V, "name");
}

void SpecChecks::checkPrintable(const YAML::Node &V, StringRef Key) {
  StringRef N = V.Scalar();
  for (size_t I = 0; I < N.size(); ++I)
    if ((unsigned char)N[I] < 0x20 || N[I] == 0x7f) {
      error(Pos.valueLoc(V),
            "'" + Key + "' holds a control character (0x" +
                toHex(N.substr(I, 1), /*LowerCase=*/true) +
                "); it is printable text",
            N.size());
      return;
    }
}

} // namespace rewriter
} // namespace sonde
