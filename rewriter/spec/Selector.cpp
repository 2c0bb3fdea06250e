//===- Selector.cpp - The selector language: its data ---------------------===//
//
// What a parsed selector answers by itself: whether a glob matches a name or
// a file, how an item is spelt, and the error type. The parser is in
// SelectorParser.cpp, the normal form in SelectorNormalize.cpp.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Selector.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace sonde {
namespace rewriter {

char SelectorError::ID = 0;

void SelectorError::log(raw_ostream &OS) const { OS << Message; }

std::error_code SelectorError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

bool globMatch(StringRef Glob, StringRef Text) {
  // Iterative glob with backtracking to the last '*'.
  size_t G = 0, T = 0, StarG = StringRef::npos, StarT = 0;
  while (T < Text.size()) {
    if (G < Glob.size() && (Glob[G] == '?' || Glob[G] == Text[T])) {
      ++G;
      ++T;
    } else if (G < Glob.size() && Glob[G] == '*') {
      StarG = G++;
      StarT = T;
    } else if (StarG != StringRef::npos) {
      G = StarG + 1;
      T = ++StarT;
    } else {
      return false;
    }
  }
  while (G < Glob.size() && Glob[G] == '*')
    ++G;
  return G == Glob.size();
}

bool FuncGlob::matches(StringRef QualifiedName) const {
  if (StringRef(Glob).contains("::"))
    return globMatch(Glob, QualifiedName);
  size_t Colons = QualifiedName.rfind("::");
  StringRef Unqualified = Colons == StringRef::npos
                              ? QualifiedName
                              : QualifiedName.substr(Colons + 2);
  return globMatch(Glob, Unqualified);
}

bool FuncGlob::matchesFile(StringRef File) const {
  if (FileGlob.empty())
    return true;
  // A glob without '/' names a file anywhere: `/train.cpp/f`.
  if (!StringRef(FileGlob).contains('/')) {
    size_t Slash = File.rfind('/');
    StringRef Base = Slash == StringRef::npos ? File : File.substr(Slash + 1);
    if (globMatch(FileGlob, Base))
      return true;
  }
  return globMatch(FileGlob, File) || globMatch("*/" + FileGlob, File);
}

std::string Item::spelling() const {
  switch (Kind) {
  case TargetKind::Variable:
    return Name;
  case TargetKind::AnyVariable:
    return "$" + Name;
  case TargetKind::Star:
    return "*";
  case TargetKind::Call:
    return Callee.Glob + "()";
  case TargetKind::Meta:
    break;
  }
  switch (Meta) {
  case MetaKind::Enter:
    return "#enter";
  case MetaKind::Exit:
    return "#exit";
  case MetaKind::Value:
    return "#value";
  case MetaKind::Error:
    return "#error";
  case MetaKind::LoopVar:
    return "#loop_" + Name;
  case MetaKind::EndLoopVar:
    return "#endloop_" + Name;
  case MetaKind::AnyLoop:
    return "#loop";
  case MetaKind::LoopAtLine:
    return "#loop@" + std::to_string(Line);
  case MetaKind::None:
    break;
  }
  return "";
}

} // namespace rewriter
} // namespace sonde
