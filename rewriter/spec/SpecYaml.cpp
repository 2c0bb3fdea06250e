//===- SpecYaml.cpp - Where a YAML node is in the spec text ---------------===//
//
// See SpecYaml.h: yaml-cpp's marks mapped to the positions messages point
// at.
//
//===----------------------------------------------------------------------===//

#include "SpecYaml.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace sonde {
namespace rewriter {

SpecLoc YamlPositions::loc(const YAML::Node &N) const {
  YAML::Mark M = N.Mark();
  if (M.is_null())
    return SpecLoc{};
  return SpecLoc{unsigned(M.line + 1), unsigned(M.column + 1)};
}

SpecLoc YamlPositions::offsetLoc(size_t Off) const {
  StringRef Before = Buf.take_front(Off);
  return SpecLoc{unsigned(1 + Before.count('\n')),
                 unsigned(1 + Before.size() - (Before.rfind('\n') + 1))};
}

size_t YamlPositions::textPos(const YAML::Node &N) const {
  YAML::Mark M = N.Mark();
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

SpecLoc YamlPositions::valueLoc(const YAML::Node &N) const {
  size_t I = textPos(N);
  if (I == StringRef::npos)
    return loc(N);
  if (Buf[I] == '"' || Buf[I] == '\'')
    ++I;
  return offsetLoc(I);
}

SpecLoc YamlPositions::entryLoc(const YAML::Node &N) const {
  YAML::Mark M = N.Mark();
  if (!N.IsNull() || M.is_null())
    return loc(N);
  StringRef Before = Buf.take_front(std::min<size_t>(M.pos, Buf.size()));
  size_t Dash = Before.find_last_not_of(" \t\r\n");
  if (Dash != StringRef::npos && Before[Dash] == '-')
    return offsetLoc(Dash);
  return loc(N);
}

bool YamlPositions::quoteClosesOnLine(size_t Pos) const {
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

} // namespace rewriter
} // namespace sonde
