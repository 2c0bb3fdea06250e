//===- SpecChecks.h - The checks every spec section shares ------*- C++ -*-===//
//
// What every section loader asks of a YAML node, whatever the section: a key
// among the known ones (or the nearest as a suggestion), no repeated key, no
// YAML tag, a value of the right type (string, boolean), text on one line,
// spec code that stays one expression, a known category, a printable name.
// Each check reports through `error`, located with YamlPositions, and every
// problem is collected, not just the first. The section loaders
// (SpecLoaders.h) decide what the values mean.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_SPECCHECKS_H
#define SONDE_REWRITER_SPEC_SPECCHECKS_H

#include "SpecYaml.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace sonde {
namespace rewriter {

/// The spec being loaded, the messages found so far, and the checks.
class SpecChecks {
public:
  /// `S.SM` holds the text yaml-cpp parses.
  explicit SpecChecks(Spec &S);

  Spec &S;
  YamlPositions Pos;
  std::vector<llvm::SMDiagnostic> Diags;
  bool HasErrors = false;
  /// The key the last unknown key was taken for, if any.
  std::string LastSuggestion;

  /// Records an error at `L`, a caret under `Len` characters.
  void error(SpecLoc L, const llvm::Twine &Msg, unsigned Len = 0,
             llvm::StringRef FixIt = "");
  /// A selector error, located in the selector text that starts at `Base`;
  /// `Hint` is appended to its message.
  void selectorError(SpecLoc Base, const SelectorError &E,
                     llvm::StringRef Hint = "");

  /// An explicit tag (`!!binary`, `!custom`) asks for a type or meaning a
  /// probe spec does not have. False, after an error, at the first one.
  bool checkTags(const YAML::Node &N);
  /// yaml-cpp keeps both entries of a repeated key; a spec must not.
  void checkDuplicates(const YAML::Node &Map);
  /// Whether `Key` is one of `Allowed`; if not, an error that names the
  /// nearest (kept in LastSuggestion) or lists them. `What` names the kind
  /// of key in the message (`probe key`).
  bool checkKey(const YAML::Node &Key, llvm::ArrayRef<const char *> Allowed,
                llvm::StringRef What);

  /// "'when' has no value", and why when something was written after the
  /// key: `when: &&x` is an anchor named `&x` on nothing.
  std::string noValue(const YAML::Node &KeyNode, llvm::StringRef Key) const;

  /// A string value of `Key` into `Out`; false, after an error, if `V` is a
  /// list or a map.
  bool scalar(const YAML::Node &V, llvm::StringRef Key, std::string &Out);
  /// A boolean in any of YAML's spellings into `Out`.
  bool boolean(const YAML::Node &V, llvm::StringRef Key, bool &Out);

  /// Text that sonde puts on one line of a source (a selector, spec code, a
  /// name) is written on one line of the spec too, where its errors are
  /// located by column. False, after an error, when it is not.
  bool oneLine(const YAML::Node &V, llvm::StringRef Key);
  /// Spec code (`when`, an `args` value, `model`): one line, one
  /// expression. `What` names it in messages.
  bool checkSpecCode(const YAML::Node &V, llvm::StringRef Key,
                     const std::string &What);

  /// `Category`, the value of `V`: a known category, a parent's `.init`, or
  /// `user.<anything>`.
  bool checkCategory(llvm::StringRef Category, const YAML::Node &V);
  /// An arg name (the key `Key`): an identifier, dots allowed.
  void checkIdentifier(const YAML::Node &Key, llvm::StringRef What);
  /// An event name: printable, and not empty (no `name:` gives the default).
  void checkName(const YAML::Node &V);
  /// Names that go into the trace as they are (a `name`, a `user.`
  /// category).
  void checkPrintable(const YAML::Node &V, llvm::StringRef Key);
};

} // namespace rewriter
} // namespace sonde

#endif // SONDE_REWRITER_SPEC_SPECCHECKS_H
