//===- InvariantsFile.cpp - The invariants file: YAML in, YAML out
//---------===//
//
// `sonde infer` writes a small YAML subset and `sonde check` reads exactly
// that subset back (docs/invariants.md, "The file"): top-level `key: value`
// lines, a list of trace paths, and a list of flat maps, one per
// invariant, every string double-quoted with JSON's escapes. Written and
// read by hand rather than with yaml-cpp: the trace library and the
// `sonde` tool are built without the engine's dependencies (runtime-only
// and sanitizer builds), and a reader of one known shape can say exactly
// which line is wrong and why.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace sonde::trace::inv {
namespace {

std::string yamlString(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C == '\n') {
      Out += "\\n";
    } else if (C == '\t') {
      Out += "\\t";
    } else if (C < 0x20 || C == 0x7f) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out + "\"";
}

std::string number(double X) { return shortestDouble(X); }

/// Parses a value after `key:`: a double-quoted string or a plain word.
bool parseValue(const std::string &Text, std::string &Out, std::string &Why) {
  size_t I = Text.find_first_not_of(' ');
  if (I == std::string::npos) {
    Why = "a key with no value";
    return false;
  }
  if (Text[I] != '"') {
    size_t End = Text.find(" #", I);
    Out = Text.substr(I, End == std::string::npos ? End : End - I);
    while (!Out.empty() && Out.back() == ' ')
      Out.pop_back();
    return true;
  }
  Out.clear();
  for (++I; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '"') {
      size_t Rest = Text.find_first_not_of(' ', I + 1);
      if (Rest != std::string::npos && Text[Rest] != '#') {
        Why = "text after the closing quote";
        return false;
      }
      return true;
    }
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I >= Text.size())
      break;
    switch (Text[I]) {
    case 'n':
      Out += '\n';
      break;
    case 't':
      Out += '\t';
      break;
    case '"':
    case '\\':
    case '/':
      Out += Text[I];
      break;
    case 'u': {
      if (I + 4 >= Text.size()) {
        Why = "a \\u escape cut short";
        return false;
      }
      unsigned long Code =
          std::strtoul(Text.substr(I + 1, 4).c_str(), nullptr, 16);
      if (Code > 0x7f) {
        Why = "a \\u escape beyond ASCII (this file never holds one)";
        return false;
      }
      Out += static_cast<char>(Code);
      I += 4;
      break;
    }
    default:
      Why = std::string("an unknown escape '\\") + Text[I] + "'";
      return false;
    }
  }
  Why = "a string with no closing quote";
  return false;
}

bool knownRelation(const std::string &Family, const std::string &Relation) {
  for (const struct Family &F : families())
    if (Family == F.Name)
      for (const char *R : F.Relations)
        if (Relation == R)
          return true;
  return false;
}

} // namespace

void writeInvariants(const std::vector<Invariant> &Invariants,
                     const std::vector<std::string> &Traces,
                     const InferOptions &Options, std::FILE *Out) {
  std::fprintf(Out,
               "# sonde invariants, learned by `sonde infer` from runs known "
               "to be good.\n# Check a run against them: sonde check TRACE "
               "--invariants FILE (docs/invariants.md).\n");
  std::fprintf(Out, "version: 1\nmin_support: %llu\nrange_margin: %s\n",
               static_cast<unsigned long long>(Options.MinSupport),
               number(Options.RangeMargin).c_str());
  std::fprintf(Out, "traces:\n");
  for (const std::string &T : Traces)
    std::fprintf(Out, "  - %s\n", yamlString(T).c_str());
  std::fprintf(Out, "invariants:%s\n", Invariants.empty() ? " []" : "");
  for (const Invariant &I : Invariants) {
    std::fprintf(Out, "  - family: %s\n    relation: %s\n", I.Family.c_str(),
                 I.Relation.c_str());
    auto Field = [&](const char *Key, const std::string &V) {
      if (!V.empty())
        std::fprintf(Out, "    %s: %s\n", Key, yamlString(V).c_str());
    };
    Field("scope", I.Scope);
    Field("other", I.Other);
    Field("subject", I.Subject);
    if (I.Relation == "fixed" || I.Relation == "same")
      std::fprintf(Out, "    value: %s\n", yamlString(I.Value).c_str());
    if (I.Relation == "range")
      std::fprintf(Out, "    lo: %s\n    hi: %s\n", number(I.Lo).c_str(),
                   number(I.Hi).c_str());
    Field("direction", I.Direction);
    std::fprintf(Out, "    support: %llu\n",
                 static_cast<unsigned long long>(I.Support));
    Field("text", I.Text);
  }
}

bool readInvariants(const std::string &Path, std::vector<Invariant> &Out,
                    std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot read: " + std::strerror(errno);
    return false;
  }
  enum { Top, InTraces, InInvariants } Section = Top;
  std::string Line;
  unsigned No = 0;
  bool Version = false;
  auto Fail = [&](const std::string &Why) {
    Error = Path + ":" + std::to_string(No) + ": " + Why;
    return false;
  };
  auto Finish = [&]() -> bool {
    if (Out.empty())
      return true;
    const Invariant &I = Out.back();
    std::string Where = "the invariant at line " + std::to_string(I.Line);
    if (I.Family.empty() || I.Relation.empty() || I.Subject.empty()) {
      Error = Path + ":" + std::to_string(I.Line) + ": " + Where +
              " needs family, relation and subject";
      return false;
    }
    if (!knownRelation(I.Family, I.Relation)) {
      Error = Path + ":" + std::to_string(I.Line) + ": unknown relation '" +
              I.Family + "." + I.Relation + "'";
      return false;
    }
    bool NeedsScope = I.Relation == "precedes" || I.Relation == "contains" ||
                      I.Relation == "constant_within";
    if ((NeedsScope && I.Scope.empty()) ||
        (I.Relation == "precedes" && I.Other.empty()) ||
        (I.Relation == "monotone" && I.Direction != "increasing" &&
         I.Direction != "decreasing")) {
      Error = Path + ":" + std::to_string(I.Line) + ": " + Where +
              " lacks what '" + I.Relation + "' needs (docs/invariants.md)";
      return false;
    }
    return true;
  };
  while (std::getline(In, Line)) {
    ++No;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    size_t Indent = Line.find_first_not_of(' ');
    if (Indent == std::string::npos || Line[Indent] == '#')
      continue;
    if (Line.find('\t') != std::string::npos)
      return Fail("a tab (YAML indents with spaces)");
    bool Item = Line.compare(Indent, 2, "- ") == 0;
    std::string Body = Line.substr(Indent + (Item ? 2 : 0));
    if (Indent == 0) {
      size_t Colon = Body.find(':');
      if (Colon == std::string::npos)
        return Fail("expected 'key: value'");
      std::string Key = Body.substr(0, Colon), Rest = Body.substr(Colon + 1);
      std::string V;
      if (Key == "traces" || Key == "invariants") {
        size_t R = Rest.find_first_not_of(' ');
        if (R != std::string::npos && Rest.compare(R, 2, "[]") != 0)
          return Fail("'" + Key + ":' is followed by a list on the next lines");
        if (!Finish())
          return false;
        Section = Key == "traces" ? InTraces : InInvariants;
        continue;
      }
      std::string Why;
      if (!parseValue(Rest, V, Why))
        return Fail(Why);
      if (Key == "version") {
        if (V != "1")
          return Fail("version " + V + " (this sonde reads version 1)");
        Version = true;
      } else if (Key != "min_support" && Key != "range_margin") {
        return Fail("unknown key '" + Key + "'");
      }
      continue;
    }
    if (Section == Top)
      return Fail("an indented line outside 'traces:' and 'invariants:'");
    if (Section == InTraces) {
      if (!Item)
        return Fail("expected '- \"PATH\"' in 'traces:'");
      continue;
    }
    if (Item) {
      if (!Finish())
        return false;
      Out.emplace_back();
      Out.back().Line = No;
    } else if (Out.empty() || Indent != 4) {
      return Fail("expected '  - key: value' or '    key: value'");
    }
    size_t Colon = Body.find(':');
    if (Colon == std::string::npos)
      return Fail("expected 'key: value'");
    std::string Key = Body.substr(0, Colon), V, Why;
    if (!parseValue(Body.substr(Colon + 1), V, Why))
      return Fail(Why);
    Invariant &I = Out.back();
    auto Num = [&](double &D) {
      char *End = nullptr;
      D = std::strtod(V.c_str(), &End);
      return End != V.c_str() && *End == '\0' && !std::isnan(D);
    };
    if (Key == "family")
      I.Family = V;
    else if (Key == "relation")
      I.Relation = V;
    else if (Key == "scope")
      I.Scope = V;
    else if (Key == "other")
      I.Other = V;
    else if (Key == "subject")
      I.Subject = V;
    else if (Key == "value")
      I.Value = V;
    else if (Key == "direction")
      I.Direction = V;
    else if (Key == "text")
      I.Text = V;
    else if (Key == "lo" || Key == "hi") {
      if (!Num(Key == "lo" ? I.Lo : I.Hi))
        return Fail("'" + Key + "' is not a number: '" + V + "'");
    } else if (Key == "support") {
      double D;
      if (!Num(D) || D < 0 || D >= 1.8e19 || D != std::floor(D))
        return Fail("'support' is not a count: '" + V + "'");
      I.Support = static_cast<uint64_t>(D);
    } else {
      return Fail("unknown key '" + Key + "'");
    }
  }
  if (!Finish())
    return false;
  if (!Version) {
    Error = Path + ": no 'version: 1' line: not a sonde invariants file";
    return false;
  }
  return true;
}

} // namespace sonde::trace::inv
