//===- TextOut.h - Text formatted into a buffer, written in chunks -*- C++
//-*-===//
//
// Every `sonde` output (summary, info, dump, the exports, the report) is
// formatted with fmt into one memory buffer that goes to its FILE in large
// chunks: a write per 64 KiB, not a stdio call per field. A TextOut without
// a FILE is a plain memory buffer (a CSV cell formatted as JSON).
//
// fmt counts a string's width in display columns, printf in bytes; the
// tables pad with left() and right(), which count bytes, so a column of
// names with UTF-8 in them lines up as it always has.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_TEXTOUT_H
#define SONDE_TRACE_TEXTOUT_H

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string_view>

namespace sonde::trace {

class TextOut {
public:
  /// The size past which the buffer goes to the FILE.
  static constexpr size_t Chunk = size_t(1) << 16;

  /// `F` null: the text stays in buffer() until taken.
  explicit TextOut(std::FILE *F) : F(F) {}
  ~TextOut() { flush(); }
  TextOut(const TextOut &) = delete;
  TextOut &operator=(const TextOut &) = delete;

  template <typename... T>
  TextOut &print(fmt::format_string<T...> Format, T &&...Args) {
    fmt::format_to(std::back_inserter(Buf), Format, std::forward<T>(Args)...);
    return written();
  }
  TextOut &raw(std::string_view S) {
    // One resize and one copy: fmt's append goes a chunk at a time, and
    // the exports append a few short pieces per event.
    if (S.empty())
      return *this;
    size_t At = Buf.size();
    Buf.resize(At + S.size());
    std::memcpy(Buf.data() + At, S.data(), S.size());
    return written();
  }
  TextOut &put(char C) {
    Buf.push_back(C);
    return written();
  }
  /// `S` then spaces up to `Width` bytes (printf's "%-*s").
  TextOut &left(std::string_view S, size_t Width) {
    Buf.append(S);
    return spaces(Width, S.size());
  }
  /// Spaces up to `Width` bytes, then `S` (printf's "%*s").
  TextOut &right(std::string_view S, size_t Width) {
    spaces(Width, S.size());
    return raw(S);
  }

  /// The text not yet written (all of it without a FILE).
  fmt::memory_buffer &buffer() { return Buf; }
  /// Writes the buffer out when it holds a chunk or more.
  TextOut &written() {
    if (F && Buf.size() >= Chunk)
      flush();
    return *this;
  }
  /// Writes the buffer out (nothing without a FILE).
  void flush() {
    if (!F || !Buf.size())
      return;
    std::fwrite(Buf.data(), 1, Buf.size(), F);
    Buf.clear();
  }

private:
  TextOut &spaces(size_t Width, size_t Used) {
    for (; Used < Width; ++Used)
      Buf.push_back(' ');
    return *this;
  }

  std::FILE *F;
  fmt::memory_buffer Buf;
};

} // namespace sonde::trace

#endif // SONDE_TRACE_TEXTOUT_H
