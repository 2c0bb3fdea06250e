//===- MemberCache.h - JSON members formatted once per site ----*- C++ -*-===//
//
// Most of what an export writes for an event is the same for every event of
// its site (name, category, file, line, function) or of its thread (pid,
// tid, rank). Escaped anew for each of 1e8 events, those strings were most
// of an export's time. A MemberCache formats them once, with the same
// JsonOut calls (the escaping stays in JsonOut::quoted, the one place), and
// the export copies the text after: the output is the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_EXPORTS_MEMBERCACHE_H
#define SONDE_TRACE_EXPORTS_MEMBERCACHE_H

#include "Json.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sonde::trace {

class MemberCache {
public:
  /// The members for `Key` (`"k":v,...`, for JsonOut::members), made by
  /// `Make(JsonOut &)` the first time the key is asked for.
  template <class MakeFn> std::string_view get(uint64_t Key, MakeFn &&Make) {
    // Events come in runs of one thread and one site: the last key first.
    if (Last && LastKey == Key)
      return *Last;
    auto [It, New] = Texts.try_emplace(Key);
    if (New) {
      TextOut Buf(nullptr);
      JsonOut J(Buf);
      Make(J);
      It->second = std::string(J.text());
    }
    LastKey = Key;
    Last = &It->second;
    return It->second;
  }

  /// Forgets every text: the next trace's sites and threads are others.
  void clear() {
    Texts.clear();
    Last = nullptr;
  }

private:
  std::unordered_map<uint64_t, std::string> Texts;
  uint64_t LastKey = 0;
  const std::string *Last = nullptr;
};

} // namespace sonde::trace

#endif // SONDE_TRACE_EXPORTS_MEMBERCACHE_H
