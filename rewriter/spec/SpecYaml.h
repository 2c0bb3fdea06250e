//===- SpecYaml.h - Where a YAML node is in the spec text -------*- C++ -*-===//
//
// yaml-cpp gives a node a mark (line, column, offset) that is not always
// where a reader looks: it points at an anchor or a tag before the text, at
// the opening quote, or, for a null entry, at the next token. YamlPositions
// maps a node back to the spec position a message should point at, reading
// the spec text beside the mark. Positions only: no messages here (those are
// in SpecChecks.h).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_SPECYAML_H
#define SONDE_REWRITER_SPEC_SPECYAML_H

#include "sonde/rewriter/Spec.h"

#include "llvm/ADT/StringRef.h"

#include <yaml-cpp/yaml.h>

namespace sonde {
namespace rewriter {

/// Positions of YAML nodes in the text yaml-cpp parsed (`Buf`, the byte-order
/// mark removed, as Spec::diag finds positions again).
class YamlPositions {
public:
  explicit YamlPositions(llvm::StringRef Buf) : Buf(Buf) {}

  llvm::StringRef buffer() const { return Buf; }

  /// Where yaml-cpp marks the node (its anchor, tag or quote included).
  SpecLoc loc(const YAML::Node &N) const;

  /// Columns count from the last '\n', as Spec::diag finds them again
  /// (SourceMgr::getLineAndColumn also breaks lines at a lone '\r').
  SpecLoc offsetLoc(size_t Off) const;

  /// Where a node's text starts: after an anchor (`&a`) or a tag (`!t`)
  /// before it; npos when unknown.
  size_t textPos(const YAML::Node &N) const;

  /// The location of a scalar's first character (after its quote).
  SpecLoc valueLoc(const YAML::Node &N) const;

  /// Where a null sequence entry (`  -` alone) is: its '-'. yaml-cpp marks
  /// it at the next token.
  SpecLoc entryLoc(const YAML::Node &N) const;

  /// Whether the quoted scalar whose opening quote is at `Pos` ends on the
  /// line it starts on (an unclosed quote folds the following lines into
  /// the value).
  bool quoteClosesOnLine(size_t Pos) const;

private:
  llvm::StringRef Buf;
};

} // namespace rewriter
} // namespace sonde

#endif // SONDE_REWRITER_SPEC_SPECYAML_H
