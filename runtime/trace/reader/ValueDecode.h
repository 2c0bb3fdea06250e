//===- ValueDecode.h - Values kept in the file's encoding -------*- C++ -*-===//
//
// A structured value (a tensor summary, a model state record) decoded into
// Value objects costs an allocation per member and per string, which made
// three quarters of `sonde check`. A stream can keep such values in the
// file's encoding instead (TraceStream::setEncodedValues, Value::encoded):
// this header is what reads those bytes, either into Values when a user asks
// (Value::members()) or, for readers that only walk them, into a flat list
// of nodes in preorder with no allocation once its vector has grown
// (flatten(): the invariants' Feed).
//
// Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_VALUEDECODE_H
#define SONDE_TRACE_READER_VALUEDECODE_H

#include "TraceFormat.h"
#include "sonde/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sonde::trace::detail {

/// A varint at P (below E) into V, P then past it; false where
/// Cursor::varint() fails. Inline: the walks over values read one a node.
inline bool fastVarint(const uint8_t *&P, const uint8_t *E, uint64_t &V) {
  if (__builtin_expect(P < E && *P < 0x80, 1)) {
    V = *P++;
    return true;
  }
  format::Cursor C(P, E);
  V = C.varint();
  P = C.pos();
  return C.ok();
}

/// Decodes an encoded Object's members or an Array's items (the other one
/// stays empty). False when the bytes are not one value whose keys are in
/// the table (the reader checked them: never for a stream's values).
bool decodeEncoded(const Value::Encoding &E, Value::Members &Members,
                   std::vector<Value> &Items);

/// DefinedAt of an id no String block defined.
constexpr uint64_t NotDefined = ~uint64_t(0);

/// What a Decoder keeps to walk and make encoded values: the file's strings
/// as a table (built once, when the outline has read them all) and where
/// each id was first defined (the offset of its String block), so that a
/// value's keys are checked by index. Both empty when the ids are too
/// sparse for a table (a corrupt file): its values are decoded as usual.
struct EncodedKeys {
  std::shared_ptr<const Value::KeyTable> Table;
  std::vector<uint64_t> DefinedAt;
};

/// One node of a value in preorder: a scalar, a string, or an Object or
/// Array followed by its members' or items' nodes.
struct FlatNode {
  Value::Kind K = Value::Kind::Null;
  /// The node's place in the list past its subtree: an object's first
  /// member is the next node, its second is at the first's End.
  uint32_t End = 0;
  /// An object member's key; null for array items and the root.
  const std::string *Key = nullptr;
  /// Key is in a file's string table (an encoded value's): the same
  /// pointer, while the file is read, is the same key.
  bool TableKey = false;
  union {
    bool B;
    int64_t I = 0;
    uint64_t U;
    double F;
  };
  /// A String's text (in the value's bytes or its decoded string).
  std::string_view S;

  bool isScalar() const {
    return K == Value::Kind::Bool || K == Value::Kind::Int ||
           K == Value::Kind::UInt || K == Value::Kind::Float ||
           K == Value::Kind::String;
  }
};

/// Appends the nodes of `V` (encoded or not: the same nodes) to `Out`. The
/// nodes point into `V`, valid while it lives unchanged.
void flatten(const Value &V, std::vector<FlatNode> &Out);

/// What a value's nodes are, in preorder, without their values: the shape
/// flatten() gave a value, to read the next one of that shape by.
struct ShapeNode {
  Value::Kind K;
  uint32_t End;           ///< FlatNode::End
  const std::string *Key; ///< FlatNode::Key, a file's string table's
  uint32_t Count;         ///< an Object's members, an Array's items
};

/// Nodes with the kinds, ends and keys of `Shape[0, N)` and no values: the
/// list flattenAs() fills, made once per shape.
void shapeNodes(const ShapeNode *Shape, size_t N, std::vector<FlatNode> &Out);

/// The values of the encoded value `Enc` (sound: its stream kept it
/// encoded) into `Out[0, N)`, which shapeNodes() made from `Shape`: the
/// nodes flatten() makes, when the value has the kinds, keys and counts of
/// `Shape`. One walk of the bytes with the shape known, and only the values
/// written. False at the first difference (`Out` then still has the shape,
/// with some of its values this value's).
bool flattenAs(const Value::Encoding &Enc, const ShapeNode *Shape, size_t N,
               FlatNode *Out);

/// flattenAs() without its checks, for a value known to pass them: one
/// whose reader gave it the structure number (Value::Encoding::Shape) of a
/// value that flattenAs() read by `Shape` in the same file. The same
/// values into `Out[0, N)`, stepping over the keys and reading only the
/// tags and payloads (a bool's tag is its value); where the value ends.
const uint8_t *readByShape(const Value::Encoding &Enc, const ShapeNode *Shape,
                           size_t N, FlatNode *Out);

/// Where a node's payload is in the bytes of a value: a bool's tag, an
/// integer's varint (Len bytes), a float's 8 bytes, a string's text (Len
/// bytes). Objects, arrays and nulls have none.
struct PayloadPlace {
  uint32_t Node;
  uint32_t At; ///< from Value::Encoding::Data
  uint32_t Len;
  Value::Kind K;
};

/// readByShape() into `Out`, and where each payload was into `Places`: for
/// the values with its number when the number is exact
/// (Value::Encoding::ShapeExact), whose payloads are all at those places.
/// False if the value does not end where the shape does.
bool payloadPlaces(const Value::Encoding &Enc, const ShapeNode *Shape, size_t N,
                   FlatNode *Out, std::vector<PayloadPlace> &Places);

/// readByShape() for a value of an exact number whose places
/// payloadPlaces() gave from a value of that number: the payloads read where
/// they are, the nodes between them not walked.
void readAtPlaces(const Value::Encoding &Enc,
                  const std::vector<PayloadPlace> &Places, FlatNode *Out);

/// The member `Key` of the object at `Out[At]`, or null.
const FlatNode *flatMember(const std::vector<FlatNode> &Nodes, size_t At,
                           std::string_view Key);

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_VALUEDECODE_H
