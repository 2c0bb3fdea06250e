//===- SpecText.h - The text checks of spec loading -------------*- C++ -*-===//
//
// What spec loading asks of the spec's text before and beside yaml-cpp: the
// nearest known word, yaml-cpp's messages said in terms of what to fix,
// where an unclosed quote or a second document starts, whether the bytes are
// text, and whether spec code stays one expression on one line.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_SPECTEXT_H
#define SONDE_REWRITER_SPEC_SPECTEXT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace sonde {
namespace rewriter {
namespace spectext {

/// The closest of `Candidates` to `Word`, if it is a plausible typo.
std::string nearest(llvm::StringRef Word,
                    llvm::ArrayRef<const char *> Candidates);

/// yaml-cpp's message, said in terms of what to fix.
std::string yamlMessage(const std::string &Msg, llvm::StringRef Line,
                        unsigned Col);

/// The last line up to `Upto` whose double quotes do not pair up (an
/// unclosed quote makes YAML complain lines later), or 0.
unsigned unclosedQuoteBefore(llvm::StringRef Text, unsigned Upto);

/// The line where a second YAML document starts (a `---` after content, or
/// content after `...`), or 0.
unsigned secondDocument(llvm::StringRef Text);

/// What is wrong with spec code (`when`, an `args` value, `model`) that
/// sonde pastes between its own parentheses on a line of the user's source:
/// it must stay one expression inside them and leave the rest of the line
/// alone. The compiler checks the rest.
struct CodeProblem {
  size_t Offset, Length;
  std::string Message;
};

/// `What` names the code in messages: `'when'`, `arg 'epoch'`.
std::optional<CodeProblem> specCodeProblem(llvm::StringRef Code,
                                           const std::string &What);

/// Where the text stops being UTF-8 (or holds a NUL byte), if it does.
std::optional<size_t> notText(llvm::StringRef Text);

} // namespace spectext
} // namespace rewriter
} // namespace sonde

#endif // SONDE_REWRITER_SPEC_SPECTEXT_H
