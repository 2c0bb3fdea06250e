//===- SpecText.cpp - The text checks of spec loading ---------------------===//
//
// See SpecText.h. No YAML and no AST here: text in, positions and messages
// out.
//
//===----------------------------------------------------------------------===//

#include "SpecText.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"

using namespace llvm;

namespace sonde {
namespace rewriter {
namespace spectext {

/// The closest of `Candidates` to `Word`, if it is a plausible typo.
std::string nearest(StringRef Word, ArrayRef<const char *> Candidates) {
  std::string Best;
  unsigned BestDist = std::max<unsigned>(2, Word.size() / 4) + 1;
  for (const char *C : Candidates) {
    unsigned D = Word.edit_distance(C, /*AllowReplacements=*/true, BestDist);
    if (D < BestDist) {
      BestDist = D;
      Best = C;
    }
  }
  return Best;
}

/// yaml-cpp's message, said in terms of what to fix.
std::string yamlMessage(const std::string &Msg, StringRef Line, unsigned Col) {
  std::string Out = "invalid YAML: ";
  if (Msg == "end of map flow not found")
    Out += "a '{' is not closed by '}'";
  else if (Msg == "end of sequence flow not found")
    Out += "a '[' is not closed by ']'";
  else if (Msg == "end of map not found")
    Out += "this line is not aligned with the keys above it (end of map "
           "not found)";
  else if (Msg == "end of sequence not found")
    Out += "this line is not aligned with the entries above it (end of "
           "sequence not found)";
  else
    Out += Msg;
  // Selectors and C++ are full of characters that mean something to YAML
  // at the start of a plain value (`at: *::forward` is an alias).
  StringRef Before = Line.take_front(Col).rtrim(" ");
  bool AfterKey =
      Before.ends_with(":") ||
      (Before.ends_with("*") && Before.drop_back().rtrim(" ").ends_with(":"));
  if ((Msg == "the referenced anchor is not defined" ||
       Msg == "alias not found after *") &&
      AfterKey)
    Out += "; a value that starts with '*' is a YAML alias: write the "
           "value in quotes";
  else if (Msg == "anchor not found after &")
    Out += "; '&' here starts a YAML anchor: write the value in quotes";
  else if (Msg == "illegal map value")
    Out += "; ': ' inside a value starts a key: write the value in quotes";
  else if (StringRef(Msg).starts_with("unknown escape character"))
    Out += "; in double quotes '\\' starts an escape: write '\\\\' or "
           "use single quotes";
  // YAML indents with spaces only; a tab gives messages about something
  // else entirely.
  if (Line.take_front(Col).find('\t') != StringRef::npos)
    Out += "; this line is indented with a tab, and YAML indents with "
           "spaces only";
  return Out;
}

/// The last line up to `Upto` whose double quotes do not pair up (an
/// unclosed quote makes YAML complain lines later), or 0.
unsigned unclosedQuoteBefore(StringRef Text, unsigned Upto) {
  unsigned No = 0, Found = 0;
  for (StringRef L : split(Text, '\n')) {
    if (++No > Upto)
      break;
    bool In = false;
    for (size_t I = 0; I < L.size(); ++I) {
      if (!In && L[I] == '#' && (I == 0 || isSpace(L[I - 1])))
        break;
      if (In && L[I] == '\\')
        ++I;
      else if (L[I] == '"')
        In = !In;
    }
    if (In)
      Found = No;
  }
  return Found;
}

/// The line where a second YAML document starts (a `---` after content, or
/// content after `...`), or 0.
unsigned secondDocument(StringRef Text) {
  bool Content = false, Ended = false;
  unsigned No = 0;
  for (StringRef L : split(Text, '\n')) {
    ++No;
    auto Marker = [&](StringRef M) {
      return L.starts_with(M) && (L.size() == 3 || isSpace(L[3]));
    };
    StringRef T = L.trim();
    bool Blank = T.empty() || T.starts_with("#");
    if (Marker("---")) {
      if (Content || Ended)
        return No;
      Content = !L.drop_front(3).trim().empty() &&
                !L.drop_front(3).trim().starts_with("#");
      continue;
    }
    if (Marker("...")) {
      Ended = true;
      continue;
    }
    if (Blank || L.starts_with("%"))
      continue;
    if (Ended)
      return No;
    Content = true;
  }
  return 0;
}

/// `What` names the code in messages: `'when'`, `arg 'epoch'`.
std::optional<CodeProblem> specCodeProblem(StringRef Code,
                                           const std::string &What) {
  if (Code.trim().empty())
    return CodeProblem{0, 0, What + " is empty; write a C++ expression"};
  size_t NL = Code.find_first_of("\r\n");
  if (NL != StringRef::npos)
    return CodeProblem{NL, 1,
                       What + " holds a line break; spec code is inserted "
                              "into one line of the source, whose line "
                              "numbers must not move"};
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.LineComment = LO.Digraphs = LO.Bool = true;
  std::string Buf = Code.str(); // NUL-terminated, as the lexer wants
  clang::Lexer L(clang::SourceLocation(), LO, Buf.data(), Buf.data(),
                 Buf.data() + Buf.size());
  // Whitespace mode returns an unclosed '/*' as a token instead of
  // dropping it.
  L.SetKeepWhitespaceMode(true);
  struct Open {
    clang::tok::TokenKind Close;
    size_t Offset;
    char Spelling;
  };
  SmallVector<Open> Stack;
  clang::Token T;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    size_t Off = T.getLocation().getRawEncoding();
    StringRef Text = StringRef(Buf).substr(Off, T.getLength());
    switch (T.getKind()) {
    case clang::tok::comment:
      if (Text.starts_with("//"))
        return CodeProblem{Off, Text.size(),
                           "a '//' comment in " + What +
                               " would hide the rest of the source line; "
                               "use '/* ... */' or no comment"};
      if (Text.size() < 4 || !Text.ends_with("*/"))
        return CodeProblem{Off, 2,
                           "this '/*' comment is not closed in " + What};
      break;
    case clang::tok::unknown:
      if (Text.starts_with("/*"))
        return CodeProblem{Off, 2,
                           "this '/*' comment is not closed in " + What};
      if (Text.find_first_of("\"'") != StringRef::npos)
        return CodeProblem{Off, Text.size(),
                           "this literal is not closed in " + What};
      break;
    case clang::tok::l_paren:
      Stack.push_back({clang::tok::r_paren, Off, '('});
      break;
    case clang::tok::l_square:
      Stack.push_back({clang::tok::r_square, Off, '['});
      break;
    case clang::tok::l_brace:
      Stack.push_back({clang::tok::r_brace, Off, '{'});
      break;
    case clang::tok::r_paren:
    case clang::tok::r_square:
    case clang::tok::r_brace:
      if (Stack.empty() || Stack.back().Close != T.getKind())
        return CodeProblem{
            Off, Text.size(),
            "'" + Text.str() + "' closes " +
                (Stack.empty()
                     ? std::string("a bracket that ") + What + " did not open"
                     : std::string("the '") + Stack.back().Spelling +
                           "' opened at column " +
                           std::to_string(Stack.back().Offset + 1) + " of " +
                           What) +
                "; spec code is one C++ expression, which sonde puts in "
                "parentheses"};
      Stack.pop_back();
      break;
    case clang::tok::raw_identifier:
      // Not an expression: a pragma would change how the rest of the file
      // compiles.
      if (Text == "_Pragma")
        return CodeProblem{Off, Text.size(),
                           "'_Pragma' in " + What +
                               " would change how the rest of the source "
                               "compiles; spec code is one C++ expression"};
      break;
    case clang::tok::comma:
    case clang::tok::semi:
      // Top-level, ';' ends a statement and ',' is the comma operator,
      // which discards its left side (and -Wunused-value breaks -Werror
      // builds). A comma between template arguments counts too;
      // parentheses keep it.
      if (Stack.empty())
        return CodeProblem{
            Off, 1,
            T.is(clang::tok::semi)
                ? "';' ends a statement; " + What + " is one C++ expression"
                : "',' outside brackets makes two expressions, of which the "
                  "first is discarded; " +
                      What +
                      " is one C++ expression (put a template's argument "
                      "list in parentheses)"};
      break;
    default:
      break;
    }
  }
  if (!Stack.empty())
    return CodeProblem{Stack.back().Offset, 1,
                       std::string("this '") + Stack.back().Spelling +
                           "' is not closed in " + What};
  return std::nullopt;
}

/// Where the text stops being UTF-8 (or holds a NUL byte), if it does.
std::optional<size_t> notText(StringRef Text) {
  const auto *Begin = reinterpret_cast<const UTF8 *>(Text.data());
  const UTF8 *Stop = Begin;
  size_t Bad = isLegalUTF8String(&Stop, Begin + Text.size())
                   ? StringRef::npos
                   : size_t(Stop - Begin);
  // NUL is valid UTF-8, but not text.
  size_t First = std::min(Text.find('\0'), Bad);
  if (First == StringRef::npos)
    return std::nullopt;
  return First;
}

} // namespace spectext
} // namespace rewriter
} // namespace sonde
