//===- ValueSkeleton.h - A value's structure, by number ---------*- C++ -*-===//
//
// The one walk of `sonde check` (Decoder::checkedValue) checks every value
// it reads (each key defined before its block, nothing cut) and finds where
// it ends: the encoding gives a value no length. Most structured values of
// a site repeat a structure (a model state record's keys, tags and counts
// are its parameter's, record after record). The walk keeps a few per site,
// each numbered: a value with one of them is checked by comparing the bytes
// that do not change (key id, tag, count), eight at a time under a mask,
// and stepping over those that do (the leaves' payloads), and is given
// that number (Value::Encoding::Shape). An exact skeleton also fixes each
// string's and varint's length, so that its values' payloads are all at
// the same places (Value::Encoding::ShapeExact). The Feed, which reads
// each value again by its layout's shape, then trusts a number it has read
// that shape from, and reads only the payloads (readByShape(), or
// readAtPlaces() for an exact number; ValueDecode.h).
//
// Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_VALUESKELETON_H
#define SONDE_TRACE_READER_VALUESKELETON_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sonde::trace::detail {

/// The structure of one structured value: per node in preorder, its fixed
/// bytes and how to step over its payload.
class ValueSkeleton {
public:
  /// The skeleton of the value [P, End), which the reader's checking walk
  /// accepted whole, its key ids' String blocks at `DefinedAt` (by id).
  /// False when it has none: a truncated item, too many nodes.
  /// An exact skeleton also fixes the length of each varint and string
  /// (a model state record's are its parameter's): the whole value is then
  /// one stretch of bytes compared under a mask, its payloads at fixed
  /// places. A general one steps over each varint and string by the bytes.
  static bool make(const uint8_t *P, const uint8_t *End,
                   const std::vector<uint64_t> &DefinedAt, bool Exact,
                   ValueSkeleton &Out);

  /// Where the value at P (bytes below E) ends when it has this structure,
  /// else null. A value it accepts, the checking walk accepts, with the
  /// same end, in any block after keysAt(): the same key ids, tags and
  /// counts, each payload checked as that walk checks it.
  const uint8_t *match(const uint8_t *P, const uint8_t *E) const;

  /// The latest String block that defined one of its keys: usable in a
  /// block that starts after it.
  uint64_t keysAt() const { return KeysAt; }

  /// Its number in its file (Value::Encoding::Shape), never reused.
  uint16_t Id = 0;
  /// Made exact (make()): Value::Encoding::ShapeExact.
  bool Exact = false;

private:
  /// A payload whose length its bytes say (a float's is a span's).
  enum class Pay : uint8_t { None, Varint, Str, Bool };
  /// A stretch of bytes of known length (nodes' fixed bytes and the
  /// 8-byte payloads between them), compared word by word under a mask,
  /// then the one payload whose length the bytes say (or none, at the end).
  /// A model state record's thirty nodes are a dozen spans: match() costs
  /// a few instructions a node, not a few dozen.
  struct Span {
    uint32_t Len;   ///< bytes compared, then stepped over
    uint32_t First; ///< its words in Words
    uint32_t NumWords;
    Pay Then;
  };
  struct Word {
    uint64_t Lead; ///< the fixed bytes, little-endian; 0 where masked
    uint64_t Mask; ///< 0xff over each fixed byte
  };
  /// Appends one byte to the span being made, its bits under Mask fixed.
  void addByte(uint8_t B, uint8_t Mask);
  /// Ends the span being made, the payload `Then` after it.
  void endSpan(Pay Then);
  std::vector<Span> Spans;
  std::vector<Word> Words;
  uint32_t OpenLen = 0; ///< the span being made's bytes (make() only)
  uint64_t KeysAt = 0;
};

/// The skeletons of one site's values: tried from the last one that
/// matched. A site learns exact skeletons while they rarely miss (values
/// whose strings or integers keep changing length make them miss), then
/// general ones; a site whose values keep changing structure stops.
struct SiteSkeletons {
  static constexpr size_t Most = 8;
  std::vector<ValueSkeleton> Known;
  size_t Last = 0, Next = 0;
  uint64_t Hits = 0, Misses = 0;
  bool learns() const { return Misses < 16 || Misses <= Hits; }
  bool learnsExact() const { return Misses < 12 || 8 * Misses <= Hits; }
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_VALUESKELETON_H
