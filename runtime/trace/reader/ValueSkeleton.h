//===- ValueSkeleton.h - A value's structure, by number ---------*- C++ -*-===//
//
// The one walk of `sonde check` (Decoder::checkedValue) checks every value
// it reads (each key defined before its block, nothing cut) and finds where
// it ends: the encoding gives a value no length. Most structured values of
// a site repeat a structure (a model state record's keys, tags and counts
// are its parameter's, record after record). The walk keeps a few per site,
// each numbered: a value with one of them is checked by comparing, node by
// node, the bytes that do not change (key id, tag, count) and stepping over
// those that do (the leaves' payloads), and is given that number
// (Value::Encoding::Shape). The Feed, which reads each value again by its
// layout's shape, then trusts a number it has read that shape from, and
// reads only the payloads (readByShape(), ValueDecode.h).
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
  /// False when it has none: a node whose fixed bytes are more than four
  /// (a key id or count past 2^14), a truncated item, too many nodes.
  static bool make(const uint8_t *P, const uint8_t *End,
                   const std::vector<uint64_t> &DefinedAt, ValueSkeleton &Out);

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

private:
  /// What follows a node's fixed bytes.
  enum class Pay : uint8_t { None, Varint, F64, Str, Bool };
  struct Step {
    uint32_t Lead; ///< the fixed bytes, little-endian
    uint32_t Mask; ///< of the LeadLen bytes
    uint8_t LeadLen;
    Pay P;
  };
  std::vector<Step> Steps;
  uint64_t KeysAt = 0;
};

/// The skeletons of one site's values: tried from the last one that
/// matched; a site whose values keep changing structure stops learning.
struct SiteSkeletons {
  static constexpr size_t Most = 4;
  std::vector<ValueSkeleton> Known;
  size_t Last = 0, Next = 0;
  uint64_t Hits = 0, Misses = 0;
  bool learns() const { return Misses < 16 || Misses <= Hits; }
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_VALUESKELETON_H
