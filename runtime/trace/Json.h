//===- Json.h - A small streaming JSON writer -------------------*- C++ -*-===//
//
// Enough JSON for the exporters: objects, arrays, strings with escapes,
// integers, and doubles in their shortest round-trip form (NaN and the
// infinities, which JSON lacks, are written as the strings "NaN",
// "Infinity" and "-Infinity"). Strings are written as UTF-8: a byte that is
// not part of a well-formed UTF-8 sequence is written as `InvalidByte`
// (docs/exports.md). Every JSON string any output writes, keys included,
// goes through quoted(): the one place that escapes and validates.
//
// The text is formatted into a TextOut's buffer (fmt), which goes to the
// FILE in 64 KiB chunks; a JsonOut can also write into a TextOut another
// writer shares (`sonde dump` mixes text and JSON on one line, a CSV cell
// holds a structure as JSON).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_JSON_H
#define SONDE_TRACE_JSON_H

#include "TextOut.h"
#include "sonde/trace.h"

#include <cstdint>
#include <cstdio>
#include <memory>
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
      : Own(std::make_unique<TextOut>(F)), Out(*Own), ScriptSafe(ScriptSafe) {}
  /// Writes into `Into`, which its owner flushes.
  explicit JsonOut(TextOut &Into, bool ScriptSafe = false)
      : Out(Into), ScriptSafe(ScriptSafe) {}
  JsonOut(const JsonOut &) = delete;
  JsonOut &operator=(const JsonOut &) = delete;

  JsonOut &raw(std::string_view S) {
    Out.raw(S);
    return *this;
  }
  JsonOut &str(std::string_view S) { return quoted(S, {}, false); }
  /// One string, `S` then `Suffix` (a name and its ".start").
  JsonOut &str(std::string_view S, std::string_view Suffix) {
    return quoted(S, Suffix, false);
  }
  JsonOut &num(int64_t V) {
    fmt::format_int D(V);
    return raw(std::string_view(D.data(), D.size()));
  }
  JsonOut &num(uint64_t V) {
    fmt::format_int D(V);
    return raw(std::string_view(D.data(), D.size()));
  }
  JsonOut &num(double V);
  /// Microseconds with three decimals from nanoseconds, exactly.
  JsonOut &micros(int64_t Ns);
  JsonOut &value(const Value &V);
  /// `"key":` with the separator before it when needed.
  JsonOut &key(std::string_view K) { return quoted(K, {}, true); }
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
  /// Members formatted earlier by another JsonOut (`"k":v,"k2":v2`, none
  /// of them first in its object), with the separator before them: an
  /// exporter formats what every event of a site shares once.
  JsonOut &members(std::string_view Text) {
    if (Text.empty())
      return *this;
    if (!First)
      Out.put(',');
    First = false;
    return raw(Text);
  }
  /// The text formatted so far, when the TextOut has no FILE.
  std::string_view text() { return {Out.buffer().data(), Out.buffer().size()}; }
  void flush() { Out.flush(); }

private:
  /// `S` and `Suffix` as one JSON string; as a key: with the separator
  /// before it when needed, and ':' after it.
  JsonOut &quoted(std::string_view S, std::string_view Suffix, bool Key);
  /// Writes `S` escaped at `P`, which has room for MaxEscape bytes per byte
  /// of `S`; returns the end.
  char *escape(char *P, std::string_view S) const;
  /// The most one input byte becomes: InvalidByte, or a \u00XX escape.
  static constexpr size_t MaxEscape = 6;

  std::unique_ptr<TextOut> Own; ///< when made for a FILE
  TextOut &Out;
  bool ScriptSafe;
  bool First = true;
};

} // namespace sonde::trace

#endif // SONDE_TRACE_JSON_H
