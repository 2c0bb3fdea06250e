//===- sonde/rewriter/Selector.h - The selector language --------*- C++ -*-===//
//
// Parses the `at:` strings of a probe spec (a C++ dialect of ptera's
// selectors) into data, and normalizes them into a Query: context frames,
// the frame that hosts the focus, its captures, and what fires.
//
//   selector := frame { ">" frame }
//   frame    := [ "/" FILEGLOB "/" ] FUNC [ "(" item { "," item } ")" ] | item
//   item     := [ "!" | "!!" ] target [ ":" TYPE ] [ "as" NAME ]
//   target   := NAME | "$" NAME | "*" | META | FUNC "()"
//
// No AST here: this is pure text, testable alone.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTOR_H
#define SONDE_REWRITER_SELECTOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace sonde {
namespace rewriter {

/// A qualified-name glob (`train`, `Net::forward`, `*::forward`, `ns::*`),
/// optionally restricted to definitions in files matching `FileGlob`.
struct FuncGlob {
  std::string Glob;
  std::string FileGlob; ///< empty: any file
  unsigned Offset = 0;  ///< of the glob in the selector text
  unsigned Length = 0;

  /// A glob without `::` matches the unqualified name; with `::` it matches
  /// the qualified name. `*` matches any run of characters (`::` included).
  bool matches(llvm::StringRef QualifiedName) const;
  /// Whether `File` (as the engine spells it) matches `FileGlob`.
  bool matchesFile(llvm::StringRef File) const;
};

/// Matches `Text` against a shell-style glob (`*`, `?`); `*` crosses `/`
/// and `::`.
bool globMatch(llvm::StringRef Glob, llvm::StringRef Text);

enum class TargetKind {
  Variable,    ///< `loss`: a local or parameter by name
  AnyVariable, ///< `$x`: every local, recorded under its own name
  Star,        ///< `*`: every local
  Meta,        ///< `#enter` and friends
  Call,        ///< `F()`: call sites of a matching callee
};

enum class MetaKind {
  None,
  Enter,      ///< `#enter`
  Exit,       ///< `#exit`: every exit, exceptions included
  Value,      ///< `#value`: the return value at each return
  Error,      ///< `#error`: an exception leaving the function
  LoopVar,    ///< `#loop_X`: start of each iteration of the loop over X
  EndLoopVar, ///< `#endloop_X`: end of each iteration of the loop over X
  AnyLoop,    ///< `#loop`: every loop
  LoopAtLine, ///< `#loop@LINE`: the loop on that line
};

enum class RangeMark { None, Start, End };

/// One item: a focus, a capture or a range end.
struct Item {
  RangeMark Range = RangeMark::None;
  TargetKind Kind = TargetKind::Variable;
  std::string Name; ///< variable, `$` binding, or the X of `#loop_X`
  MetaKind Meta = MetaKind::None;
  unsigned Line = 0; ///< `#loop@LINE`
  FuncGlob Callee;   ///< TargetKind::Call
  std::string Type;  ///< `:TYPE` filter, or empty
  std::string As;    ///< `as NAME`, or empty
  unsigned Offset = 0, Length = 0;

  bool isLoopMeta() const {
    return Meta == MetaKind::LoopVar || Meta == MetaKind::EndLoopVar ||
           Meta == MetaKind::AnyLoop || Meta == MetaKind::LoopAtLine;
  }
  /// The spelling of the target, as written (`loss`, `#loop_epoch`, `f()`).
  std::string spelling() const;
};

/// One `>`-separated frame.
struct Frame {
  std::optional<FuncGlob> Func; ///< absent when the frame is a bare item
  bool HasParens = false;
  std::vector<Item> Items; ///< inside the parens, or the bare item
  /// A plain identifier with no parens, glob or `::` (a function when it is
  /// not last, a variable when it is the last of several frames).
  bool BareName = false;
  unsigned Offset = 0, Length = 0;
};

/// The parsed selector, frames in order.
struct Selector {
  std::vector<Frame> Frames;
};

/// What a selector fires on.
enum class FocusKind {
  Function, ///< the whole body of the host function (a region)
  Item,     ///< an item inside the host function
  Range,    ///< a region from `!A` to `!!B` inside the host function
};

/// A selector in normal form.
struct Query {
  std::vector<FuncGlob> Context; ///< frames that must be active (run time)
  FuncGlob Host;                 ///< the function the focus lives in
  std::vector<Item> Captures;    ///< values that ride along with each event
  FocusKind Focus = FocusKind::Function;
  Item FocusItem;            ///< FocusKind::Item
  Item RangeStart, RangeEnd; ///< FocusKind::Range
};

/// A selector error: where in the selector text, what, and a replacement
/// for the offending text when one is obvious.
class SelectorError : public llvm::ErrorInfo<SelectorError> {
public:
  static char ID;
  SelectorError(unsigned Offset, unsigned Length, std::string Message,
                std::string FixIt = "")
      : Offset(Offset), Length(Length), Message(std::move(Message)),
        FixIt(std::move(FixIt)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

  unsigned Offset, Length;
  std::string Message;
  std::string FixIt;
};

/// Parses `Text` per the grammar above. Refused ptera forms (`>>`,
/// `[[...]]`, `=value`, `~predicate`, `:@tag`) get a SelectorError that
/// says what to write instead.
llvm::Expected<Selector> parseSelector(llvm::StringRef Text);

/// Normalizes a parsed selector. Errors (a SelectorError) for shapes that
/// parse but mean nothing: an item frame that is not last, a range without
/// both ends, captures on a context frame.
llvm::Expected<Query> normalize(const Selector &S);

} // namespace rewriter
} // namespace sonde

#endif
