//===- Conditions.cpp - Parsing and testing `--fail-on` conditions --------===//
//
// The small grammar of Conditions.h, read by hand so that each error can
// name its column: a name, then either `:` and a list of nan and inf
// joined by `|`, or a comparison and a number. Spaces are allowed between
// the parts.
//
//===----------------------------------------------------------------------===//

#include "live/Conditions.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace sonde::trace::live {

namespace {

bool nameChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_' || C == '.' || C == '/' || C == '-';
}

/// The prefix of the training rates' names (docs/rates.md).
constexpr const char RatePrefix[] = "rate.";

} // namespace

bool Condition::names(const SiteInfo &S) const {
  if (Of != Rate::None)
    return false;
  if (S.Name == Name)
    return true;
  return Name.size() == S.Category.size() + 1 + S.Name.size() &&
         Name.compare(0, S.Category.size(), S.Category) == 0 &&
         Name[S.Category.size()] == '/' &&
         Name.compare(S.Category.size() + 1, std::string::npos, S.Name) == 0;
}

bool Condition::holds(double V) const {
  switch (Is) {
  case Test::NonFinite:
    return (Nan && std::isnan(V)) || (Inf && std::isinf(V));
  case Test::Less:
    return V < Bound;
  case Test::LessEq:
    return V <= Bound;
  case Test::Greater:
    return V > Bound;
  case Test::GreaterEq:
    return V >= Bound;
  }
  return false;
}

std::string ConditionError::render(const std::string &Text) const {
  return "'" + Text + "': " + Message + "\n  " + Text + "\n  " +
         std::string(Column, ' ') + "^";
}

bool parseCondition(const std::string &Text, Condition &Out,
                    ConditionError &Error) {
  Out = Condition();
  Out.Text = Text;
  size_t P = 0;
  auto Fail = [&](size_t At, std::string Msg) {
    Error.Column = At;
    Error.Message = std::move(Msg);
    return false;
  };
  auto SkipSpace = [&] {
    while (P < Text.size() && (Text[P] == ' ' || Text[P] == '\t'))
      ++P;
  };
  SkipSpace();
  size_t NameAt = P;
  while (P < Text.size() && nameChar(Text[P]))
    ++P;
  if (P == NameAt)
    return Fail(P, P == Text.size() ? "expected a watch name (as in "
                                      "'loss: nan|inf' or 'loss > 10')"
                                    : std::string("expected a watch name, "
                                                  "not '") +
                                          Text[P] + "'");
  Out.Name = Text.substr(NameAt, P - NameAt);
  if (Out.Name.compare(0, sizeof RatePrefix - 1, RatePrefix) == 0) {
    std::string Which = Out.Name.substr(sizeof RatePrefix - 1);
    Out.Of = Which == "train"     ? Condition::Rate::Train
             : Which == "loading" ? Condition::Rate::Loading
             : Which == "compute" ? Condition::Rate::Compute
                                  : Condition::Rate::None;
    if (Out.Of == Condition::Rate::None)
      return Fail(NameAt, "'" + Out.Name +
                              "' is no training rate; the rates are "
                              "rate.train, rate.loading and rate.compute");
  }
  SkipSpace();
  if (P == Text.size())
    return Fail(P, "expected ':' and nan|inf, or a comparison (<, <=, >, "
                   ">=) and a number, after the name");
  if (Text[P] == ':') {
    if (Out.Of != Condition::Rate::None)
      return Fail(P, "a rate is never nan or inf; compare it with a number "
                     "(as in 'rate.train < 100')");
    ++P;
    Out.Is = Condition::Test::NonFinite;
    for (;;) {
      SkipSpace();
      size_t WordAt = P;
      while (P < Text.size() && nameChar(Text[P]))
        ++P;
      std::string Word = Text.substr(WordAt, P - WordAt);
      if (Word == "nan")
        Out.Nan = true;
      else if (Word == "inf")
        Out.Inf = true;
      else
        return Fail(WordAt, Word.empty() ? "expected nan or inf"
                                         : "'" + Word + "' is not nan or inf");
      SkipSpace();
      if (P == Text.size())
        return true;
      if (Text[P] != '|')
        return Fail(P, "expected '|' or the end of the condition");
      ++P;
    }
  }
  size_t OpAt = P;
  bool Eq = P + 1 < Text.size() && Text[P + 1] == '=';
  if (Text[P] == '<')
    Out.Is = Eq ? Condition::Test::LessEq : Condition::Test::Less;
  else if (Text[P] == '>')
    Out.Is = Eq ? Condition::Test::GreaterEq : Condition::Test::Greater;
  else
    return Fail(OpAt, std::string("expected ':' or a comparison (<, <=, >, "
                                  ">=), not '") +
                          Text[P] + "'");
  P += Eq ? 2 : 1;
  SkipSpace();
  size_t NumAt = P;
  if (P == Text.size())
    return Fail(P, "expected a number after the comparison");
  const char *Begin = Text.c_str() + P;
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(Begin, &End);
  if (End == Begin || std::isnan(V) || std::isinf(V))
    return Fail(NumAt, "expected a finite number");
  if (errno == ERANGE)
    return Fail(NumAt, "this number is out of range");
  P += static_cast<size_t>(End - Begin);
  SkipSpace();
  if (P != Text.size())
    return Fail(P, "expected the end of the condition after the number");
  Out.Bound = V;
  return true;
}

} // namespace sonde::trace::live
