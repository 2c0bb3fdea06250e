//===- ValueDecode.cpp - Decoding and skipping recorded values ------------===//
//
// A record's value (a watch's, an arg's): scalars inline, strings, and the
// objects and arrays of tensor summaries, whose keys name strings the file
// defined before. Split from Records.cpp because what a value costs to
// decode is its own concern (sonde check decodes every one).
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

namespace sonde::trace::detail {

bool Decoder::decodeValue(Cursor &C, Value &V, unsigned Depth) {
  if (Depth > 64)
    return false;
  auto Tag = static_cast<Val>(C.byte());
  if (!C.ok())
    return false;
  switch (Tag) {
  case Val::Null:
    V.K = Value::Kind::Null;
    return true;
  case Val::False:
  case Val::True:
    V.K = Value::Kind::Bool;
    V.B = Tag == Val::True;
    return true;
  case Val::Int:
    V.K = Value::Kind::Int;
    V.I = C.svarint();
    return C.ok();
  case Val::UInt:
    V.K = Value::Kind::UInt;
    V.U = C.varint();
    return C.ok();
  case Val::Float:
    V.K = Value::Kind::Float;
    V.F = C.f64();
    return C.ok();
  case Val::String:
    V = Value::string(readStr(C));
    return C.ok();
  case Val::Object: {
    Value::Members M;
    uint64_t N = C.varint();
    bool Ok = true;
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      uint64_t Key = C.varint();
      auto It = Strings.find(static_cast<uint32_t>(Key));
      if (!C.ok() || It == Strings.end() || Key > UINT32_MAX)
        return false; // every key is defined by a String block before use
      M.emplace_back(It->second.first, Value());
      if (!decodeValue(C, M.back().second, Depth + 1)) {
        Ok = C.ok(); // truncated inside: keep what came before
        break;
      }
      if (M.back().second.K == Value::Kind::Truncated)
        break;
    }
    V = Value::object(std::move(M));
    return Ok && C.ok();
  }
  case Val::Array: {
    std::vector<Value> Items;
    uint64_t N = C.varint();
    bool Ok = true;
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      Items.emplace_back();
      if (!decodeValue(C, Items.back(), Depth + 1)) {
        Ok = C.ok();
        break;
      }
      if (Items.back().K == Value::Kind::Truncated)
        break;
    }
    V = Value::array(std::move(Items));
    return Ok && C.ok();
  }
  case Val::Truncated:
    V.K = Value::Kind::Truncated;
    return true;
  }
  return false;
}

/// decodeValue without the value: true exactly where decodeValue would be
/// (an object key must have been defined before the block `BlockAt`).
bool Decoder::skipValue(Cursor &C, uint64_t BlockAt, unsigned Depth) {
  if (Depth > 64)
    return false;
  auto Tag = static_cast<Val>(C.byte());
  if (!C.ok())
    return false;
  switch (Tag) {
  case Val::Null:
  case Val::False:
  case Val::True:
  case Val::Truncated:
    return true;
  case Val::Int:
  case Val::UInt:
    C.varint();
    return C.ok();
  case Val::Float:
    C.f64();
    return C.ok();
  case Val::String:
    C.bytes(C.varint());
    return C.ok();
  case Val::Object:
  case Val::Array: {
    bool Object = Tag == Val::Object;
    uint64_t N = C.varint();
    bool Ok = true;
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      if (Object) {
        uint64_t Key = C.varint();
        auto It = Strings.find(static_cast<uint32_t>(Key));
        if (!C.ok() || It == Strings.end() || Key > UINT32_MAX ||
            It->second.second >= BlockAt)
          return false;
      }
      const uint8_t *ItemAt = C.pos();
      if (!skipValue(C, BlockAt, Depth + 1)) {
        Ok = C.ok();
        break;
      }
      if (static_cast<Val>(*ItemAt) == Val::Truncated)
        break;
    }
    return Ok && C.ok();
  }
  }
  return false;
}

} // namespace sonde::trace::detail
