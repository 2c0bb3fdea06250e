//===- Json.cpp - A small streaming JSON writer ---------------------------===//

#include "Json.h"

#include <charconv>
#include <cmath>

namespace sonde::trace {

void JsonOut::flush() {
  if (!Buf.empty())
    std::fwrite(Buf.data(), 1, Buf.size(), F);
  Buf.clear();
}

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

} // namespace

JsonOut &JsonOut::str(std::string_view S) {
  Buf.push_back('"');
  for (size_t I = 0; I < S.size();) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C >= 0x80) {
      // JSON text is UTF-8 (RFC 8259): a byte that is not part of a
      // well-formed sequence (a Latin-1 "na\xefve") becomes U+FFFD.
      size_t N = utf8Length(S.substr(I));
      if (N)
        Buf.append(S.substr(I, N));
      else
        Buf.append(InvalidByte);
      I += N ? N : 1;
      continue;
    }
    ++I;
    switch (C) {
    case '"':
      Buf.append("\\\"");
      break;
    case '\\':
      Buf.append("\\\\");
      break;
    case '\n':
      Buf.append("\\n");
      break;
    case '\r':
      Buf.append("\\r");
      break;
    case '\t':
      Buf.append("\\t");
      break;
    default:
      if (C < 0x20 || (ScriptSafe && (C == '<' || C == '>' || C == '&'))) {
        char Esc[8];
        std::snprintf(Esc, sizeof Esc, "\\u%04x", C);
        Buf.append(Esc);
      } else {
        Buf.push_back(static_cast<char>(C));
      }
    }
  }
  return raw("\"");
}

JsonOut &JsonOut::num(int64_t V) {
  char B[24];
  auto R = std::to_chars(B, B + sizeof B, V);
  return raw(std::string_view(B, R.ptr - B));
}

JsonOut &JsonOut::num(uint64_t V) {
  char B[24];
  auto R = std::to_chars(B, B + sizeof B, V);
  return raw(std::string_view(B, R.ptr - B));
}

JsonOut &JsonOut::num(double V) {
  if (std::isnan(V))
    return str("NaN");
  if (std::isinf(V))
    return str(V > 0 ? "Infinity" : "-Infinity");
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
  num(Abs / 1000);
  char Frac[8];
  std::snprintf(Frac, sizeof Frac, ".%03d", static_cast<int>(Abs % 1000));
  return raw(Frac);
}

JsonOut &JsonOut::key(std::string_view K) {
  if (!First)
    raw(",");
  First = false;
  str(K);
  return raw(":");
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
