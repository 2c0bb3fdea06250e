//===- Decoder.h - The state of reading one trace file -------- -*- C++ -*-===//
//
// The reader's inside: a Decoder takes the blocks of one file in order
// (Blocks.cpp), decodes the records of Events blocks with their values and
// context args (Records.cpp), checks every record against what the file
// declared, and at the end puts times on the wall clock and events in
// program order (Timeline.cpp). Reader.cpp walks the file's framing and
// drives it. Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_DECODER_H
#define SONDE_TRACE_READER_DECODER_H

#include "sonde/trace.h"

#include "TraceFormat.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sonde::trace::detail {

using format::Block;
using format::Cursor;
using format::Ev;
using format::Val;

/// A string of the file: a varint length, then its bytes.
std::string readStr(Cursor &C);

/// Per-thread decoding state: the running timestamp and the stack of
/// context pushes (args in force).
struct CtxEntry {
  uint32_t Site;
  bool Inherit;
  Args Values;
};
struct ThreadDecode {
  std::vector<CtxEntry> Ctx;
  /// The arg set last computed, valid while the stack is unchanged.
  const Args *Cached = nullptr;
  uint32_t CachedOwn = ~0u;
  bool Valid = false;
};

class Decoder {
public:
  Decoder(Trace &T) : T(T) {}

  bool decodeValue(Cursor &C, Value &V, unsigned Depth = 0);
  /// Decodes one block, `C` over its body (cut short when the file is
  /// torn inside it).
  void block(Block B, Cursor &C);
  void finish();

  Trace &T;
  /// The file's first byte, for the offsets in messages.
  const uint8_t *Base = nullptr;
  /// Whether Level records give instants and watches their nesting level
  /// (format 1.2); before, a record on the tick a region starts on is
  /// placed inside it.
  bool PointLevels = true;
  /// The first corruption found and how many more: the reader skips what it
  /// cannot trust and says so once (Trace::Problem).
  std::string Corrupt;
  size_t MoreCorrupt = 0;
  std::string TimeProblem; ///< times out of range, set by finish()
  std::unordered_map<uint32_t, std::string> Strings;
  std::map<uint32_t, ThreadDecode> Threads;
  std::vector<ClockAnchor> &Anchors = T.Anchors;
  std::map<uint32_t, uint64_t> Dropped;
  uint64_t MaxTsc = 0;
  uint64_t EndTsc = 0;

private:
  void events(Cursor &C);
  void programOrder();
  /// Notes a record or block the file cannot have; its reader skips the
  /// rest of the block (its framing may be off from there).
  void corrupt(const uint8_t *At, const std::string &What) {
    if (!Corrupt.empty()) {
      ++MoreCorrupt;
      return;
    }
    Corrupt = "byte " + std::to_string(At - Base) + ": " + What;
  }
  /// The site's description in messages.
  std::string siteName(uint64_t Id) const {
    return "site " + std::to_string(Id) +
           (Id < T.Sites.size() && T.Sites[Id].Id == Id
                ? " ('" + T.Sites[Id].Name + "')"
                : std::string());
  }
  /// Null when `Site` (a number as the file gives it) is defined and may
  /// carry a record of type `Type`, else why not.
  const char *checkSite(uint64_t Site, Ev Type) const;
  /// Whether a Thread block announced `Index` (a number as the file gives
  /// it).
  bool knownThread(uint64_t Index) const {
    return Index <= UINT32_MAX &&
           T.thread(static_cast<uint32_t>(Index)) != nullptr;
  }
  /// Per event, in file order: the nesting level that orders it (a
  /// region's own, an instant's or watch's from Level records), NoLevel
  /// when the file does not say.
  std::vector<uint32_t> OrderLevel;
  static constexpr uint32_t NoLevel = ~0u;
  const Args *argsFor(ThreadDecode &TD, uint32_t OwnSite);
  const Args *intern(Args A) {
    if (A.empty())
      return T.ArgSets.front().get();
    T.ArgSets.push_back(std::make_unique<Args>(std::move(A)));
    return T.ArgSets.back().get();
  }
  /// Site ids are dense (given out at first hit, each written in a Site
  /// block), so an id far beyond the file's size is corruption: it must not
  /// size the table (a 10-byte file once asked for 400 GB).
  bool ensureSite(uint32_t Id) {
    if (Id > MaxSite)
      return false;
    if (T.Sites.size() <= Id)
      T.Sites.resize(Id + 1);
    return true;
  }

public:
  uint32_t MaxSite = 1u << 24;
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_DECODER_H
