//===- Json.cpp - A small streaming JSON writer ---------------------------===//
//
// See Json.h. A string is escaped straight into the buffer, which is first
// made large enough for the worst case.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

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

/// Whether no byte of `W` is zero (the classic "has zero byte" test).
constexpr bool noZeroByte(uint64_t W) {
  return ((W - 0x0101010101010101u) & ~W & 0x8080808080808080u) == 0;
}
/// Whether `W`'s bytes are all plain (as plainBytes says).
constexpr bool plainWord(uint64_t W, bool ScriptSafe) {
  constexpr uint64_t Ones = 0x0101010101010101u;
  // ASCII (top bit clear), and 0x20 or above: (W + 0x60 in each byte)
  // carries into the top bit exactly for bytes 0x20..0x7f.
  if ((W & 0x8080808080808080u) ||
      (~(W + 0x6060606060606060u) & 0x8080808080808080u))
    return false;
  bool Plain = noZeroByte(W ^ ('"' * Ones)) && noZeroByte(W ^ ('\\' * Ones));
  if (ScriptSafe)
    Plain = Plain && noZeroByte(W ^ ('<' * Ones)) &&
            noZeroByte(W ^ ('>' * Ones)) && noZeroByte(W ^ ('&' * Ones));
  return Plain;
}

} // namespace

char *JsonOut::escape(char *P, std::string_view S) const {
  const std::array<bool, 256> &Plain = ScriptSafe ? PlainScript : PlainJson;
  const char *Data = S.data();
  for (size_t I = 0, N = S.size(); I < N;) {
    // Eight plain bytes at a time (names, keys and paths are mostly plain),
    // then one at a time up to the next byte that is not plain.
    for (uint64_t W; I + 8 <= N; I += 8, P += 8) {
      std::memcpy(&W, Data + I, 8);
      if (!plainWord(W, ScriptSafe))
        break;
      std::memcpy(P, &W, 8);
    }
    while (I < N && Plain[static_cast<unsigned char>(Data[I])])
      *P++ = Data[I++];
    if (I == N)
      break;
    unsigned char C = static_cast<unsigned char>(Data[I]);
    if (C >= 0x80) {
      // JSON text is UTF-8 (RFC 8259): a byte that is not part of a
      // well-formed sequence (a Latin-1 "na\xefve") becomes U+FFFD.
      size_t L = utf8Length(S.substr(I));
      std::string_view Out = L ? S.substr(I, L) : InvalidByte;
      P = std::copy(Out.begin(), Out.end(), P);
      I += L ? L : 1;
      continue;
    }
    ++I;
    *P++ = '\\';
    switch (C) {
    case '"':
    case '\\':
      *P++ = static_cast<char>(C);
      break;
    case '\n':
      *P++ = 'n';
      break;
    case '\r':
      *P++ = 'r';
      break;
    case '\t':
      *P++ = 't';
      break;
    default: // other control characters; '<', '>', '&' when script-safe
      P = fmt::format_to(P, "u{:04x}", C);
    }
  }
  return P;
}

JsonOut &JsonOut::quoted(std::string_view S, std::string_view Suffix,
                         bool Key) {
  // Room for the worst case, then the bytes written directly: no check
  // of the buffer's capacity per byte.
  fmt::memory_buffer &B = Out.buffer();
  size_t Start = B.size();
  B.resize(Start + MaxEscape * (S.size() + Suffix.size()) + 4);
  char *P = B.data() + Start;
  if (Key && !First)
    *P++ = ',';
  *P++ = '"';
  P = escape(P, S);
  if (!Suffix.empty())
    P = escape(P, Suffix);
  *P++ = '"';
  if (Key) {
    *P++ = ':';
    First = false;
  }
  B.resize(static_cast<size_t>(P - B.data()));
  Out.written();
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
  // "{}.{:03}" by hand: fmt parses a format string on every call.
  fmt::format_int Whole(Abs / 1000);
  auto Frac = static_cast<unsigned>(Abs % 1000);
  const char Decimals[4] = {'.', static_cast<char>('0' + Frac / 100),
                            static_cast<char>('0' + Frac / 10 % 10),
                            static_cast<char>('0' + Frac % 10)};
  raw(std::string_view(Whole.data(), Whole.size()));
  return raw(std::string_view(Decimals, 4));
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
