//===- Json.cpp - A small streaming JSON writer ---------------------------===//
//
// See Json.h. Strings are copied in runs of bytes that need no escape; only
// the bytes between runs are looked at one by one.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <array>
#include <charconv>
#include <cmath>

namespace sonde::trace {

namespace {

/// The length of the well-formed UTF-8 sequence at the start of `S`
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
/// or 0 when its first byte does not start one.
size_t utf8Length(std::string_view S) {
  auto B = [&](size_t I) { return static_cast<unsigned char>(S[I]); };
  auto Cont = [&](size_t I) { return I < S.size() && (B(I) & 0xc0) == 0x80; };
  unsigned char C = B(0);
  if (C < 0x80)
    return 1;
  if (C >= 0xc2 && C <= 0xdf)
    return Cont(1) ? 2 : 0;
  if (C >= 0xe0 && C <= 0xef) {
    if (!Cont(1) || !Cont(2))
      return 0;
    if ((C == 0xe0 && B(1) < 0xa0) || (C == 0xed && B(1) > 0x9f))
      return 0; // overlong, or a UTF-16 surrogate
    return 3;
  }
  if (C >= 0xf0 && C <= 0xf4) {
    if (!Cont(1) || !Cont(2) || !Cont(3))
      return 0;
    if ((C == 0xf0 && B(1) < 0x90) || (C == 0xf4 && B(1) > 0x8f))
      return 0; // overlong, or above U+10FFFF
    return 4;
  }
  return 0;
}

/// The bytes a JSON string holds as they are: printable ASCII but '"' and
/// '\\' (and, script-safe, '<', '>' and '&').
constexpr std::array<bool, 256> plainBytes(bool ScriptSafe) {
  std::array<bool, 256> P{};
  for (unsigned C = 0x20; C < 0x80; ++C)
    P[C] = C != '"' && C != '\\' &&
           !(ScriptSafe && (C == '<' || C == '>' || C == '&'));
  return P;
}
constexpr std::array<bool, 256> PlainJson = plainBytes(false),
                                PlainScript = plainBytes(true);

} // namespace

void JsonOut::escaped(std::string_view S) {
  fmt::memory_buffer &B = Out.buffer();
  const std::array<bool, 256> &Plain = ScriptSafe ? PlainScript : PlainJson;
  for (size_t I = 0, N = S.size(); I < N;) {
    size_t Run = I;
    while (Run < N && Plain[static_cast<unsigned char>(S[Run])])
      ++Run;
    B.append(S.data() + I, S.data() + Run);
    if (Run == N)
      break;
    I = Run;
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C >= 0x80) {
      // JSON text is UTF-8 (RFC 8259): a byte that is not part of a
      // well-formed sequence (a Latin-1 "na\xefve") becomes U+FFFD.
      size_t L = utf8Length(S.substr(I));
      if (L)
        B.append(S.data() + I, S.data() + I + L);
      else
        B.append(InvalidByte);
      I += L ? L : 1;
      continue;
    }
    ++I;
    switch (C) {
    case '"':
      B.append(std::string_view("\\\""));
      break;
    case '\\':
      B.append(std::string_view("\\\\"));
      break;
    case '\n':
      B.append(std::string_view("\\n"));
      break;
    case '\r':
      B.append(std::string_view("\\r"));
      break;
    case '\t':
      B.append(std::string_view("\\t"));
      break;
    default: // other control characters; '<', '>', '&' when script-safe
      fmt::format_to(std::back_inserter(B), "\\u{:04x}", C);
    }
  }
}

JsonOut &JsonOut::str(std::string_view S) {
  Out.put('"');
  escaped(S);
  Out.put('"');
  return *this;
}

JsonOut &JsonOut::str(std::string_view S, std::string_view Suffix) {
  Out.put('"');
  escaped(S);
  escaped(Suffix);
  Out.put('"');
  return *this;
}

JsonOut &JsonOut::num(double V) {
  if (std::isnan(V))
    return str("NaN");
  if (std::isinf(V))
    return str(V > 0 ? "Infinity" : "-Infinity");
  // std::to_chars's shortest form, which picks fixed or scientific by
  // length (1e+10, 123.5); fmt's "{}" chooses by exponent and would write
  // 10000000000: the exports' text stays what it has been.
  char B[32];
  auto R = std::to_chars(B, B + sizeof B, V);
  return raw(std::string_view(B, R.ptr - B));
}

JsonOut &JsonOut::micros(int64_t Ns) {
  // The magnitude as unsigned: -INT64_MIN does not fit an int64_t.
  uint64_t Abs = static_cast<uint64_t>(Ns);
  if (Ns < 0) {
    raw("-");
    Abs = 0 - Abs;
  }
  fmt::format_to(std::back_inserter(Out.buffer()), "{}.{:03}", Abs / 1000,
                 Abs % 1000);
  Out.written();
  return *this;
}

JsonOut &JsonOut::value(const Value &V) {
  switch (V.K) {
  case Value::Kind::Null:
    return raw("null");
  case Value::Kind::Bool:
    return raw(V.B ? "true" : "false");
  case Value::Kind::Int:
    return num(V.I);
  case Value::Kind::UInt:
    return num(V.U);
  case Value::Kind::Float:
    return num(V.F);
  case Value::Kind::String:
    return str(V.str());
  case Value::Kind::Truncated:
    return str("<truncated>");
  case Value::Kind::Object: {
    open();
    for (const auto &KV : V.members()) {
      key(KV.first);
      value(KV.second);
    }
    return close();
  }
  case Value::Kind::Array: {
    openArray();
    for (const Value &I : V.items()) {
      item();
      value(I);
    }
    return closeArray();
  }
  }
  return raw("null");
}

JsonOut &JsonOut::args(const Args &A) {
  open();
  for (const auto &KV : A) {
    key(KV.first);
    value(KV.second);
  }
  return close();
}

} // namespace sonde::trace
