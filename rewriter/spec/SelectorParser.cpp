//===- SelectorParser.cpp - Parsing the selector language -----------------===//
//
// Recursive descent over an `at:` string, per the grammar in Selector.h.
// Every error is a SelectorError with the offset of the offending text; the
// ptera forms sonde refuses get one that says what to write instead.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Selector.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

namespace {

// C++ identifiers may hold Unicode letters (`größe`); the spec is checked
// to be UTF-8, so any non-ASCII byte is part of one.
bool isIdentStart(char C) {
  return isAlpha(C) || C == '_' || (unsigned char)C >= 0x80;
}
bool isIdentChar(char C) { return isIdentStart(C) || isDigit(C); }

/// Recursive descent over the selector text; every error carries the
/// offset of the offending text.
class Parser {
public:
  explicit Parser(StringRef Text) : Text(Text) {}

  Expected<Selector> parse() {
    Selector S;
    skipSpace();
    if (atEnd())
      return error(0, 0, "empty selector");
    while (true) {
      auto F = parseFrame();
      if (!F)
        return F.takeError();
      S.Frames.push_back(std::move(*F));
      skipSpace();
      if (atEnd())
        break;
      if (Text.substr(Pos).starts_with(">>"))
        return error(Pos, 2,
                     "'>>' (immediate caller) is not supported; use '>', "
                     "which matches at any depth of calls",
                     ">");
      if (peek() != '>')
        return error(Pos, 1,
                     "expected '>' between frames, found '" +
                         Text.substr(Pos, 1).str() + "'");
      ++Pos;
      skipSpace();
      if (atEnd())
        return error(Pos, 0, "expected a frame after '>'");
    }
    return S;
  }

private:
  StringRef Text;
  size_t Pos = 0;

  bool atEnd() const { return Pos >= Text.size(); }
  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }
  void skipSpace() {
    while (!atEnd() && isSpace(peek()))
      ++Pos;
  }

  Error error(size_t Offset, size_t Length, const Twine &Msg,
              StringRef FixIt = "") {
    return make_error<SelectorError>(Offset, Length, Msg.str(), FixIt.str());
  }

  /// A qualified-name glob: identifiers, `::`, `*`, `?`, `~Dtor`, and
  /// `operator@`.
  Expected<std::string> parseFuncName() {
    size_t Start = Pos;
    std::string Out;
    auto SegmentStart = [&] {
      return Out.empty() || StringRef(Out).ends_with("::") ||
             StringRef(Out).ends_with("~");
    };
    while (!atEnd()) {
      char C = peek();
      // `A :: f` is `A::f`, as in C++.
      if (isSpace(C) && !Out.empty()) {
        size_t Save = Pos;
        skipSpace();
        if (peek() == ':' && peek(1) == ':' && !SegmentStart())
          continue;
        Pos = Save;
        break;
      }
      if (C == ':' && peek(1) == ':') {
        Out += "::";
        Pos += 2;
        skipSpace();
        continue;
      }
      if (C == '~' && (Out.empty() || StringRef(Out).ends_with("::")) &&
          isIdentStart(peek(1))) {
        Out += C;
        ++Pos;
        continue;
      }
      if (isIdentChar(C) || C == '*' || C == '?') {
        size_t WordStart = Pos;
        if (isDigit(C) && SegmentStart()) {
          size_t End = Pos;
          while (End < Text.size() && isIdentChar(Text[End]))
            ++End;
          return error(Pos, End - Pos,
                       "'" + Text.slice(Pos, End) +
                           "' is not a name: a function or variable name "
                           "starts with a letter or '_'");
        }
        while (!atEnd() &&
               (isIdentChar(peek()) || peek() == '*' || peek() == '?'))
          ++Pos;
        StringRef Word = Text.slice(WordStart, Pos);
        Out += Word.str();
        if (Word == "operator") {
          // `operator()`, `operator[]`, runs of operator punctuation, and
          // `operator bool`, `operator new[]`: spelled as clang names them.
          size_t AfterWord = Pos;
          skipSpace();
          if (peek() == '(' && peek(1) == ')') {
            Out += "()";
            Pos += 2;
          } else if (peek() == '[' && peek(1) == ']') {
            Out += "[]";
            Pos += 2;
          } else if (StringRef("+-*/%^&|~!=<>").contains(peek()) &&
                     // `operator > x`: the '>' between frames.
                     !(Pos > AfterWord && peek() == '>' &&
                       !StringRef("=>").contains(peek(1)))) {
            while (!atEnd() && StringRef("+-*/%^&|~!=<>").contains(peek()))
              Out += Text[Pos++];
          } else if (Pos > AfterWord && isIdentStart(peek())) {
            // A conversion (`operator bool`, `operator unsigned int`),
            // `operator new`, `operator delete`.
            while (isIdentStart(peek())) {
              Out += ' ';
              while (!atEnd() && isIdentChar(peek()))
                Out += Text[Pos++];
              size_t Save = Pos;
              skipSpace();
              if (Pos == Save || !isIdentStart(peek())) {
                Pos = Save;
                break;
              }
            }
            if (peek() == '[' && peek(1) == ']') {
              Out += "[]";
              Pos += 2;
            }
          } else {
            Pos = AfterWord;
          }
        }
        continue;
      }
      break;
    }
    if (peek() == '<' && !Out.empty() && isIdentChar(Out.back())) {
      size_t Close = Text.find('>', Pos);
      return error(Pos, Close == StringRef::npos ? 1 : Close + 1 - Pos,
                   "template arguments are not written in a selector: '" + Out +
                       "' matches the template, its instantiations and "
                       "its specializations");
    }
    if (Out.empty()) {
      if (atEnd() || peek() == '>')
        return error(Start, 1,
                     "empty frame: expected a function, a variable, '$name', "
                     "'*', a '#' meta or a call 'F()'");
      return error(Start, 1,
                   "unexpected '" + Text.substr(Start, 1) +
                       "': expected a function, a variable, '$name', '*', "
                       "a '#' meta or a call 'F()'");
    }
    return Out;
  }

  Expected<std::string> parseIdent(StringRef What) {
    size_t Start = Pos;
    if (!isIdentStart(peek()))
      return error(Pos, 1, "expected " + What);
    while (!atEnd() && isIdentChar(peek()))
      ++Pos;
    return Text.slice(Start, Pos).str();
  }

  Error refusedItemSuffix() {
    if (peek() == '=')
      return error(Pos, Text.size() - Pos,
                   "ptera's '=value' filter is not supported; write the "
                   "condition as 'when: \"NAME == VALUE\"'");
    if (peek() == '~')
      return error(Pos, Text.size() - Pos,
                   "ptera's '~predicate' filter is not supported; write the "
                   "predicate as 'when:'");
    return Error::success();
  }

  /// TYPE: up to `as`, `,`, `)` or a `>` outside template brackets.
  Expected<std::string> parseType() {
    size_t Start = Pos;
    int Depth = 0;
    SmallVector<size_t> Opens;
    while (!atEnd()) {
      char C = peek();
      if (C == '<') {
        ++Depth;
        Opens.push_back(Pos);
      } else if (C == '>') {
        if (Depth == 0)
          break;
        --Depth;
        Opens.pop_back();
      } else if ((C == ',' || C == ')') && Depth == 0)
        break;
      else if (isSpace(C) && Depth == 0) {
        size_t Save = Pos;
        skipSpace();
        if (Text.substr(Pos).starts_with("as") && !isIdentChar(peek(2))) {
          Pos = Save;
          break;
        }
        Pos = Save;
      }
      ++Pos;
    }
    StringRef T = Text.slice(Start, Pos).trim();
    if (!Opens.empty())
      return error(Opens.back(), 1, "this '<' is not closed in the type");
    if (T.starts_with("@"))
      return error(Start, Pos - Start,
                   "ptera tags and overrides ('x:@tag') are not supported");
    if (T.empty())
      return error(Start, 1, "expected a type after ':'");
    return T.str();
  }

  Expected<Item> parseItem() {
    Item I;
    size_t Start = Pos;
    if (peek() == '!' && peek(1) == '!') {
      I.Range = RangeMark::End;
      Pos += 2;
    } else if (peek() == '!') {
      I.Range = RangeMark::Start;
      ++Pos;
    }
    skipSpace();
    char C = peek();
    if (C == '$') {
      ++Pos;
      auto N = parseIdent("a name after '$'");
      if (!N)
        return N.takeError();
      I.Kind = TargetKind::AnyVariable;
      I.Name = *N;
    } else if (C == '*' && !isIdentChar(peek(1)) &&
               !(peek(1) == ':' && peek(2) == ':') && peek(1) != '(') {
      ++Pos;
      I.Kind = TargetKind::Star;
    } else if (C == '#') {
      if (auto E = parseMeta(I))
        return std::move(E);
    } else if (isIdentStart(C) || C == '*' || C == '~' || C == ':') {
      size_t NameStart = Pos;
      auto N = parseFuncName();
      if (!N)
        return N.takeError();
      if (peek() == '(' && peek(1) == ')') {
        Pos += 2;
        I.Kind = TargetKind::Call;
        I.Callee.Glob = *N;
        I.Callee.Offset = NameStart;
        I.Callee.Length = Pos - 2 - NameStart;
      } else {
        if (!isIdentStart((*N)[0]) || StringRef(*N).contains("::") ||
            StringRef(*N).contains('*') || StringRef(*N).contains('?'))
          return error(NameStart, Pos - NameStart,
                       "'" + *N + "' is not a variable name; write '" + *N +
                           "()' for call sites or '$x' for any local");
        I.Kind = TargetKind::Variable;
        I.Name = *N;
      }
    } else if (C == '[') {
      return error(Pos, 1,
                   "ptera's '[[...]]' is not supported; write the frames "
                   "with '>'");
    } else {
      return error(Pos, 1,
                   "expected a variable, '$name', '*', a '#' meta or "
                   "a call 'F()'");
    }
    if (auto E = refusedItemSuffix())
      return std::move(E);
    if (peek() == ':' && peek(1) != ':') {
      ++Pos;
      auto T = parseType();
      if (!T)
        return T.takeError();
      I.Type = *T;
    }
    skipSpace();
    if (auto E = refusedItemSuffix())
      return std::move(E);
    if (Text.substr(Pos).starts_with("as") && !isIdentChar(peek(2))) {
      Pos += 2;
      skipSpace();
      auto N = parseIdent("a name after 'as'");
      if (!N)
        return N.takeError();
      I.As = *N;
    }
    I.Offset = Start;
    I.Length = Pos - Start;
    return I;
  }

  Error parseMeta(Item &I) {
    size_t Start = Pos;
    ++Pos; // '#'
    while (!atEnd() && (isIdentChar(peek()) || peek() == '@'))
      ++Pos;
    StringRef M = Text.slice(Start, Pos);
    I.Kind = TargetKind::Meta;
    if (M == "#enter")
      I.Meta = MetaKind::Enter;
    else if (M == "#exit")
      I.Meta = MetaKind::Exit;
    else if (M == "#value")
      I.Meta = MetaKind::Value;
    else if (M == "#error")
      I.Meta = MetaKind::Error;
    else if (M == "#loop")
      I.Meta = MetaKind::AnyLoop;
    else if (M.consume_front("#loop_") && !M.empty()) {
      I.Meta = MetaKind::LoopVar;
      I.Name = M.str();
    } else if (M.consume_front("#endloop_") && !M.empty()) {
      I.Meta = MetaKind::EndLoopVar;
      I.Name = M.str();
    } else if (M.consume_front("#loop@")) {
      if (M.getAsInteger(10, I.Line) || I.Line == 0)
        return error(Start, Pos - Start,
                     "expected a line number after '#loop@'");
      I.Meta = MetaKind::LoopAtLine;
    } else {
      StringRef Word = Text.slice(Start, Pos);
      static const char *Known[] = {"#enter", "#exit", "#value", "#error",
                                    "#loop"};
      std::string Best;
      unsigned BestDist = 3;
      for (const char *K : Known) {
        unsigned D = Word.edit_distance(K);
        if (D < BestDist) {
          BestDist = D;
          Best = K;
        }
      }
      return error(Start, Pos - Start,
                   "unknown meta '" + Word + "'" +
                       (Best.empty() ? "; expected #enter, #exit, #value, "
                                       "#error, #loop, #loop_X, #endloop_X "
                                       "or #loop@LINE"
                                     : "; did you mean '" + Best + "'?"),
                   Best);
    }
    return Error::success();
  }

  Expected<Frame> parseFrame() {
    Frame F;
    F.Offset = Pos;
    if (peek() == '[')
      return error(Pos,
                   Text.find("]]", Pos) == StringRef::npos
                       ? 1
                       : Text.find("]]", Pos) + 2 - Pos,
                   "ptera's '[[...]]' is not supported; write the frames "
                   "with '>'");
    std::string FileGlob;
    if (peek() == '/') {
      size_t Close = Text.find('/', Pos + 1);
      // The file glob may contain '/', so it ends at the last '/' before
      // the function name.
      size_t Paren = Text.find_first_of("(>", Pos + 1);
      size_t Last =
          Text.rfind('/', Paren == StringRef::npos ? Text.size() : Paren);
      if (Close == StringRef::npos || Last == Pos)
        return error(Pos, 1, "unterminated '/FILEGLOB/' before a function");
      FileGlob = Text.slice(Pos + 1, Last).str();
      Pos = Last + 1;
    }
    char C = peek();
    bool ItemStart = C == '!' || C == '$' || C == '#' ||
                     (FileGlob.empty() && C == '*' && !isIdentChar(peek(1)) &&
                      !(peek(1) == ':' && peek(2) == ':') && peek(1) != '(');
    if (ItemStart) {
      if (!FileGlob.empty())
        return error(F.Offset, Pos - F.Offset,
                     "a '/FILEGLOB/' must be followed by a function");
      auto I = parseItem();
      if (!I)
        return I.takeError();
      F.Items.push_back(std::move(*I));
      F.Length = Pos - F.Offset;
      return F;
    }
    size_t NameStart = Pos;
    auto N = parseFuncName();
    if (!N)
      return N.takeError();
    FuncGlob G;
    G.Glob = *N;
    G.FileGlob = FileGlob;
    G.Offset = NameStart;
    G.Length = Pos - NameStart;
    if (peek() == '(' && peek(1) == ')') {
      // `F()` as a frame: a call-site item.
      Pos += 2;
      Item I;
      I.Kind = TargetKind::Call;
      I.Callee = G;
      I.Offset = NameStart;
      if (auto E = refusedItemSuffix())
        return std::move(E);
      skipSpace();
      if (Text.substr(Pos).starts_with("as") && !isIdentChar(peek(2))) {
        Pos += 2;
        skipSpace();
        auto A = parseIdent("a name after 'as'");
        if (!A)
          return A.takeError();
        I.As = *A;
      }
      I.Length = Pos - NameStart;
      F.Items.push_back(std::move(I));
      F.Length = Pos - F.Offset;
      return F;
    }
    F.Func = G;
    if (peek() == '(') {
      F.HasParens = true;
      ++Pos;
      skipSpace();
      while (true) {
        if (atEnd())
          return error(Pos, 0, "expected ')' to close the frame's items");
        auto I = parseItem();
        if (!I)
          return I.takeError();
        F.Items.push_back(std::move(*I));
        skipSpace();
        if (peek() == ',') {
          ++Pos;
          skipSpace();
          continue;
        }
        if (peek() == ')') {
          ++Pos;
          break;
        }
        if (atEnd())
          return error(Pos, 0, "expected ')' to close the frame's items");
        if (peek() == '>')
          return error(Pos, 1,
                       "expected ')' to close '" + G.Glob + "(' before '>'");
        return error(Pos, 1, "expected ',' or ')' after an item");
      }
    } else {
      StringRef Name = *N;
      F.BareName = FileGlob.empty() && isIdentStart(Name[0]) &&
                   Name.find_first_of(":*?~") == StringRef::npos;
      if (auto E = refusedItemSuffix())
        return std::move(E);
      // `loss:float` (a type filter) or `loss as l` (a rename) as the last
      // frame: a variable, so the frame is reparsed as an item.
      bool Typed = peek() == ':' && peek(1) != ':';
      skipSpace();
      bool Renamed =
          Text.substr(Pos).starts_with("as") && !isIdentChar(peek(2));
      if (F.BareName && (Typed || Renamed)) {
        Pos = NameStart;
        auto I = parseItem();
        if (!I)
          return I.takeError();
        F.Func.reset();
        F.BareName = false;
        F.Items.push_back(std::move(*I));
        F.Length = Pos - F.Offset;
        return F;
      }
    }
    F.Length = Pos - F.Offset;
    return F;
  }
};

} // namespace

Expected<Selector> parseSelector(StringRef Text) {
  return Parser(Text).parse();
}

} // namespace rewriter
} // namespace sonde
