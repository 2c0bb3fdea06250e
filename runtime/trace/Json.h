//===- Json.h - A small streaming JSON writer -------------------*- C++ -*-===//
//
// Enough JSON for the exporters: objects, arrays, strings with escapes,
// integers, and doubles in their shortest round-trip form (NaN and the
// infinities, which JSON lacks, are written as the strings "NaN",
// "Infinity" and "-Infinity"). Strings are written as UTF-8: a byte that is
// not part of a well-formed UTF-8 sequence is written as `InvalidByte`
// (docs/exports.md). Buffers, and writes to a FILE.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_JSON_H
#define SONDE_TRACE_JSON_H

#include "sonde/trace.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace sonde::trace {

class JsonOut {
public:
  /// What a string byte that is not well-formed UTF-8 becomes: U+FFFD.
  static constexpr std::string_view InvalidByte = "\\ufffd";

  /// `ScriptSafe`: strings also escape '<', '>' and '&' (as \u003c ...),
  /// so the JSON can sit inside an HTML script element: no "</script" ends
  /// it, no "<!--" starts a comment in it. Outside strings JSON has none.
  explicit JsonOut(std::FILE *F, bool ScriptSafe = false)
      : F(F), ScriptSafe(ScriptSafe) {}
  ~JsonOut() { flush(); }
  JsonOut(const JsonOut &) = delete;
  JsonOut &operator=(const JsonOut &) = delete;

  JsonOut &raw(std::string_view S) {
    Buf.append(S);
    if (Buf.size() > (1u << 16))
      flush();
    return *this;
  }
  JsonOut &str(std::string_view S);
  JsonOut &num(int64_t V);
  JsonOut &num(uint64_t V);
  JsonOut &num(double V);
  /// Microseconds with three decimals from nanoseconds, exactly.
  JsonOut &micros(int64_t Ns);
  JsonOut &value(const Value &V);
  /// `"key":` with the separator before it when needed.
  JsonOut &key(std::string_view K);
  JsonOut &open() {
    First = true;
    return raw("{");
  }
  JsonOut &close() {
    First = false;
    return raw("}");
  }
  JsonOut &openArray() {
    First = true;
    return raw("[");
  }
  JsonOut &closeArray() {
    First = false;
    return raw("]");
  }
  /// A separator before an array element.
  JsonOut &item() {
    if (!First)
      raw(",");
    First = false;
    return *this;
  }
  JsonOut &args(const Args &A);
  void flush();

private:
  std::FILE *F;
  bool ScriptSafe;
  std::string Buf;
  bool First = true;
};

} // namespace sonde::trace

#endif // SONDE_TRACE_JSON_H
