//===- ValueDecode.cpp - Decoding and skipping recorded values ------------===//
//
// A record's value (a watch's, an arg's): scalars inline, strings, and the
// objects and arrays of tensor summaries, whose keys name strings the file
// defined before. Split from Records.cpp because what a value costs to
// decode is its own concern (sonde check decodes every one). A structure
// is decoded into Values (one allocation per member and per string), or,
// when the stream was asked to (TraceStream::setEncodedValues), kept as its
// bytes, read later by Value's accessors or walked as flat nodes
// (ValueDecode.h). The readings walk the bytes the same way, and a value is
// kept encoded only when its bytes decode without a fault, so every reading
// gives the same value.
//
//===----------------------------------------------------------------------===//

#include "ValueDecode.h"

#include "Decoder.h"

#include <algorithm>
#include <cstring>

namespace sonde::trace::detail {
namespace {

/// Decodes one value; `Key(id)` gives an object key's string, or null when
/// no String block defined it.
template <class KeyFn>
bool decodeWith(Cursor &C, Value &V, unsigned Depth, const KeyFn &Key);

/// An object's members, after its tag. False on a key no String block
/// defined (the object is then not made); else `Ok` says whether the
/// members decoded without a fault (a fault keeps those before it).
template <class KeyFn>
bool membersWith(Cursor &C, Value::Members &M, unsigned Depth, const KeyFn &Key,
                 bool &Ok) {
  uint64_t N = C.varint();
  // Each member takes two bytes at least: a count cannot reserve more.
  M.reserve(static_cast<size_t>(std::min<uint64_t>(N, C.left() / 2)));
  Ok = true;
  for (uint64_t I = 0; I < N && C.ok(); ++I) {
    uint64_t Id = C.varint();
    const std::string *Name = C.ok() ? Key(Id) : nullptr;
    if (!Name)
      return false; // every key is defined by a String block before use
    M.emplace_back(*Name, Value());
    if (!decodeWith(C, M.back().second, Depth + 1, Key)) {
      Ok = C.ok(); // truncated inside: keep what came before
      break;
    }
    if (M.back().second.K == Value::Kind::Truncated)
      break;
  }
  Ok = Ok && C.ok();
  return true;
}

template <class KeyFn>
bool itemsWith(Cursor &C, std::vector<Value> &Items, unsigned Depth,
               const KeyFn &Key) {
  uint64_t N = C.varint();
  Items.reserve(static_cast<size_t>(std::min<uint64_t>(N, C.left())));
  bool Ok = true;
  for (uint64_t I = 0; I < N && C.ok(); ++I) {
    Items.emplace_back();
    if (!decodeWith(C, Items.back(), Depth + 1, Key)) {
      Ok = C.ok();
      break;
    }
    if (Items.back().K == Value::Kind::Truncated)
      break;
  }
  return Ok && C.ok();
}

template <class KeyFn>
bool decodeWith(Cursor &C, Value &V, unsigned Depth, const KeyFn &Key) {
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
    bool Ok;
    if (!membersWith(C, M, Depth, Key, Ok))
      return false;
    V = Value::object(std::move(M));
    return Ok;
  }
  case Val::Array: {
    std::vector<Value> Items;
    bool Ok = itemsWith(C, Items, Depth, Key);
    V = Value::array(std::move(Items));
    return Ok;
  }
  case Val::Truncated:
    V.K = Value::Kind::Truncated;
    return true;
  }
  return false;
}

/// Walks the value at C (from its tag) without making it: true where
/// decodeWith would be, `KeyOk(id)` saying whether an object key may be
/// used. The two readings differ in what an item that fails means:
///  - `Whole` (a value kept encoded): the value fails; so exactly the values
///    that decodeWith reads without any fault are accepted, every byte read;
///  - else (the reader's check, Decoder::skipValue): as in decodeWith, an
///    item that fails while its bytes are there ends its object or array,
///    which keeps the items before it.
template <bool Whole, class KeyFn>
bool walkValue(Cursor &C, unsigned Depth, const KeyFn &KeyOk) {
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
    for (uint64_t I = 0; I < N && C.ok(); ++I) {
      if (Object) {
        uint64_t Id = C.varint();
        if (!C.ok() || !KeyOk(Id))
          return false;
      }
      const uint8_t *ItemAt = C.pos();
      if (!walkValue<Whole>(C, Depth + 1, KeyOk)) {
        if (Whole)
          return false;
        break; // decodeWith keeps the items before; C.ok() says the rest
      }
      if (static_cast<Val>(*ItemAt) == Val::Truncated)
        break;
    }
    return C.ok();
  }
  }
  return false;
}

/// walkValue on a value without any fault, which is every value of a
/// sound file: the end of its bytes, or null at anything else (a key not
/// allowed, bytes cut short, an unknown tag, too deep), where walkValue
/// must say what it means. A loop over raw pointers, with no cursor state
/// to keep: the two walks of the reader over every value were a quarter
/// of reading a trace of tensor summaries.
template <class KeyFn>
const uint8_t *fastWalk(const uint8_t *P, const uint8_t *E, unsigned Depth,
                        const KeyFn &KeyOk);

/// The rest of a scalar whose tag was read (null: not a scalar, or cut).
/// Inline: an object's members are mostly scalars, and a call per member
/// cost more than reading it.
inline const uint8_t *fastScalar(Val Tag, const uint8_t *P, const uint8_t *E,
                                 bool &Scalar) {
  uint64_t N;
  Scalar = true;
  switch (Tag) {
  case Val::Null:
  case Val::False:
  case Val::True:
  case Val::Truncated:
    return P;
  case Val::Int:
  case Val::UInt:
    return fastVarint(P, E, N) ? P : nullptr;
  case Val::Float:
    return E - P >= 8 ? P + 8 : nullptr;
  case Val::String:
    return fastVarint(P, E, N) && static_cast<uint64_t>(E - P) >= N ? P + N
                                                                    : nullptr;
  default:
    Scalar = false;
    return nullptr;
  }
}

template <class KeyFn>
const uint8_t *fastWalk(const uint8_t *P, const uint8_t *E, unsigned Depth,
                        const KeyFn &KeyOk) {
  // Items one deeper are read inline: walkValue says what too deep means.
  if (P >= E || Depth >= 64)
    return nullptr;
  auto Tag = static_cast<Val>(*P++);
  bool Scalar;
  if (const uint8_t *End = fastScalar(Tag, P, E, Scalar); Scalar)
    return End;
  if (Tag != Val::Object && Tag != Val::Array)
    return nullptr;
  bool Object = Tag == Val::Object;
  uint64_t N;
  if (!fastVarint(P, E, N))
    return nullptr;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Id;
    if (Object && !(fastVarint(P, E, Id) && KeyOk(Id)))
      return nullptr;
    if (P >= E)
      return nullptr;
    auto ItemTag = static_cast<Val>(*P);
    const uint8_t *Next = fastScalar(ItemTag, P + 1, E, Scalar);
    if (!Scalar)
      Next = fastWalk(P, E, Depth + 1, KeyOk);
    if (!Next)
      return nullptr;
    P = Next;
    if (ItemTag == Val::Truncated)
      break;
  }
  return P;
}

/// walkValue, by fastWalk when the value has no fault (the same answer
/// and the same bytes read), else by walkValue itself.
template <bool Whole, class KeyFn>
bool walk(Cursor &C, unsigned Depth, const KeyFn &KeyOk) {
  if (const uint8_t *End =
          fastWalk(C.pos(), C.pos() + C.left(), Depth, KeyOk)) {
    C.bytes(static_cast<size_t>(End - C.pos()));
    return true;
  }
  return walkValue<Whole>(C, Depth, KeyOk);
}

/// Whether the value at C decodes without any fault (every key defined,
/// nothing cut), C then past it.
bool wholeValue(Cursor &C, const EncodedKeys &Keys) {
  return walk<true>(C, 0, [&Keys](uint64_t Id) {
    return Id < Keys.DefinedAt.size() && Keys.DefinedAt[Id] != NotDefined;
  });
}

/// Fills `N` from the leaf at C whose tag `Tag` was read; false for an
/// Object or Array.
__attribute__((always_inline)) inline bool flatLeaf(Val Tag, Cursor &C,
                                                    FlatNode &N) {
  switch (Tag) {
  case Val::Null:
    N.K = Value::Kind::Null;
    return true;
  case Val::False:
  case Val::True:
    N.K = Value::Kind::Bool;
    N.B = Tag == Val::True;
    return true;
  case Val::Int:
    N.K = Value::Kind::Int;
    N.I = C.svarint();
    return true;
  case Val::UInt:
    N.K = Value::Kind::UInt;
    N.U = C.varint();
    return true;
  case Val::Float:
    N.K = Value::Kind::Float;
    N.F = C.f64();
    return true;
  case Val::String: {
    N.K = Value::Kind::String;
    uint64_t Len = C.varint();
    N.S = std::string_view(reinterpret_cast<const char *>(C.bytes(Len)),
                           static_cast<size_t>(Len));
    return true;
  }
  case Val::Truncated:
    N.K = Value::Kind::Truncated;
    return true;
  default:
    return false;
  }
}

/// Appends the nodes of the value at C, which wholeValue() accepted. `Out`
/// has room for them (a node takes a byte at least): no node moves while
/// they are made. Leaves are made inline, not by a call each.
void flattenBytes(Cursor &C, const Value::KeyTable &Keys,
                  const std::string *Key, std::vector<FlatNode> &Out) {
  FlatNode &N = Out.emplace_back();
  N.Key = Key;
  N.TableKey = Key != nullptr;
  auto Tag = static_cast<Val>(C.byte());
  if (!flatLeaf(Tag, C, N)) {
    bool Object = Tag == Val::Object;
    N.K = Object ? Value::Kind::Object : Value::Kind::Array;
    uint64_t Count = C.varint();
    for (uint64_t I = 0; I < Count && C.ok(); ++I) {
      const std::string *Name = Object ? &Keys[C.varint()] : nullptr;
      const uint8_t *ItemAt = C.pos();
      auto ItemTag = static_cast<Val>(*ItemAt);
      if (ItemTag != Val::Object && ItemTag != Val::Array) {
        FlatNode &Leaf = Out.emplace_back();
        Leaf.Key = Name;
        Leaf.TableKey = Name != nullptr;
        C.byte();
        flatLeaf(ItemTag, C, Leaf);
        Leaf.End = static_cast<uint32_t>(Out.size());
      } else {
        flattenBytes(C, Keys, Name, Out);
      }
      if (ItemTag == Val::Truncated)
        break;
    }
  }
  N.End = static_cast<uint32_t>(Out.size());
}

void flattenValue(const Value &V, const std::string *Key,
                  std::vector<FlatNode> &Out) {
  if (V.encoding().Data) {
    const Value::Encoding E = V.encoding();
    Cursor C(E.Data, E.Data + E.Size);
    Out.reserve(Out.size() + E.Size);
    flattenBytes(C, *E.Keys, Key, Out);
    return;
  }
  size_t At = Out.size();
  Out.emplace_back();
  FlatNode &N = Out[At];
  N.K = V.K;
  N.Key = Key;
  if (V.K == Value::Kind::Bool)
    N.B = V.B;
  else if (V.K == Value::Kind::Int)
    N.I = V.I;
  else if (V.K == Value::Kind::UInt)
    N.U = V.U;
  else if (V.K == Value::Kind::Float)
    N.F = V.F;
  else if (V.K == Value::Kind::String)
    N.S = V.str();
  else if (V.K == Value::Kind::Object)
    for (const auto &[Name, M] : V.members())
      flattenValue(M, &Name, Out);
  else if (V.K == Value::Kind::Array)
    for (const Value &I : V.items())
      flattenValue(I, nullptr, Out);
  Out[At].End = static_cast<uint32_t>(Out.size());
}

} // namespace

void shapeNodes(const ShapeNode *Shape, size_t N, std::vector<FlatNode> &Out) {
  Out.assign(N, FlatNode());
  for (size_t I = 0; I < N; ++I) {
    Out[I].K = Shape[I].K;
    Out[I].End = Shape[I].End;
    Out[I].Key = Shape[I].Key;
    Out[I].TableKey = Shape[I].Key != nullptr;
  }
}

bool flattenAs(const Value::Encoding &Enc, const ShapeNode *Shape, size_t N,
               FlatNode *Out) {
  const Value::KeyTable &Keys = *Enc.Keys;
  const uint8_t *P = Enc.Data, *E = Enc.Data + Enc.Size;
  for (size_t I = 0; I < N; ++I) {
    const ShapeNode &Want = Shape[I];
    FlatNode &Node = Out[I];
    uint64_t Id, Len;
    // An object's member: its key first, the same string of the table.
    if (Want.Key &&
        !(fastVarint(P, E, Id) && Id < Keys.size() && &Keys[Id] == Want.Key))
      return false;
    if (P >= E)
      return false;
    // The kind, end and key are the shape's (shapeNodes()); a leaf's value
    // is all that changes from record to record.
    switch (static_cast<Val>(*P++)) {
    case Val::Null:
      if (Want.K != Value::Kind::Null)
        return false;
      break;
    case Val::False:
    case Val::True:
      if (Want.K != Value::Kind::Bool)
        return false;
      Node.B = static_cast<Val>(P[-1]) == Val::True; // U's other bytes: 0
      break;
    case Val::Int:
      if (Want.K != Value::Kind::Int || !fastVarint(P, E, Node.U))
        return false;
      Node.I = format::unzigzag(Node.U);
      break;
    case Val::UInt:
      if (Want.K != Value::Kind::UInt || !fastVarint(P, E, Node.U))
        return false;
      break;
    case Val::Float:
      if (Want.K != Value::Kind::Float || E - P < 8)
        return false;
      std::memcpy(&Node.F, P, 8);
      P += 8;
      break;
    case Val::String:
      if (Want.K != Value::Kind::String || !fastVarint(P, E, Len) ||
          static_cast<uint64_t>(E - P) < Len)
        return false;
      Node.S = std::string_view(reinterpret_cast<const char *>(P),
                                static_cast<size_t>(Len));
      P += Len;
      break;
    case Val::Object:
    case Val::Array:
      if (Want.K != (static_cast<Val>(P[-1]) == Val::Object
                         ? Value::Kind::Object
                         : Value::Kind::Array) ||
          !fastVarint(P, E, Len) || Len != Want.Count)
        return false;
      break;
    default: // a cut value (Truncated) ends its list early: another shape
      return false;
    }
  }
  return P == E;
}

bool Decoder::decodeValue(Cursor &C, Value &V, unsigned Depth) {
  const uint8_t *At = C.pos();
  if (EncodedValues && Depth == 0 && C.left() &&
      (static_cast<Val>(*At) == Val::Object ||
       static_cast<Val>(*At) == Val::Array)) {
    inPlace();
    Value::Kind K = static_cast<Val>(*At) == Val::Object ? Value::Kind::Object
                                                         : Value::Kind::Array;
    if (InPlace && WalkingEvents) {
      // The check walked this value without a fault: its size is known,
      // and it is whole (every key it names was defined before its block).
      while (NextExtent < Extents.size() && Extents[NextExtent].At < At)
        ++NextExtent;
      if (NextExtent < Extents.size() && Extents[NextExtent].At == At &&
          Extents[NextExtent].Size <= C.left()) {
        size_t N = Extents[NextExtent++].Size;
        V = Value::encodedIn(K, At, static_cast<uint32_t>(N), InPlace);
        C.bytes(N);
        return true;
      }
    }
    Cursor Probe = C;
    if (EncKeys->Table && wholeValue(Probe, *EncKeys)) {
      auto N = static_cast<size_t>(Probe.pos() - At);
      // In place when the bytes stay (a value is at least a tag and a
      // count, so its size is never 0, which means "not in place").
      if (InPlace && N <= UINT32_MAX)
        V = Value::encodedIn(K, At, static_cast<uint32_t>(N), InPlace);
      else
        V = Value::encoded(K,
                           std::string(reinterpret_cast<const char *>(At), N),
                           EncKeys->Table);
      C = Probe;
      return true;
    }
  }
  return decodeWith(C, V, Depth, [this](uint64_t Id) -> const std::string * {
    auto It = Strings.find(static_cast<uint32_t>(Id));
    return It == Strings.end() || Id > UINT32_MAX ? nullptr : &It->second.first;
  });
}

std::shared_ptr<EncodedKeys> Decoder::encodedKeys() const {
  auto K = std::make_shared<EncodedKeys>();
  uint32_t Max = 0;
  for (const auto &[Id, S] : Strings)
    Max = std::max(Max, Id);
  // Ids are dense (given out in order): a table far larger than the
  // strings is a corrupt file's, and its values are decoded as usual.
  if (Strings.empty() || Max > 4 * Strings.size() + 4096)
    return K;
  auto Table = std::make_shared<Value::KeyTable>(size_t(Max) + 1);
  K->DefinedAt.assign(size_t(Max) + 1, NotDefined);
  for (const auto &[Id, S] : Strings) {
    (*Table)[Id] = S.first;
    K->DefinedAt[Id] = S.second;
  }
  K->Table = std::move(Table);
  return K;
}

bool decodeEncoded(const Value::Encoding &E, Value::Members &Members,
                   std::vector<Value> &Items) {
  Cursor C(E.Data, E.Data + E.Size);
  auto Key = [&E](uint64_t Id) -> const std::string * {
    return Id < E.Keys->size() ? &(*E.Keys)[Id] : nullptr;
  };
  auto Tag = static_cast<Val>(C.byte());
  if (Tag == Val::Object) {
    bool Ok;
    return membersWith(C, Members, 0, Key, Ok) && Ok;
  }
  return Tag == Val::Array && itemsWith(C, Items, 0, Key);
}

void flatten(const Value &V, std::vector<FlatNode> &Out) {
  flattenValue(V, nullptr, Out);
}

const FlatNode *flatMember(const std::vector<FlatNode> &Nodes, size_t At,
                           std::string_view Key) {
  if (At >= Nodes.size() || Nodes[At].K != Value::Kind::Object)
    return nullptr;
  for (size_t I = At + 1; I < Nodes[At].End; I = Nodes[I].End)
    if (*Nodes[I].Key == Key)
      return &Nodes[I];
  return nullptr;
}

namespace {

/// readByShape(), and with `Note` where each payload is (payloadPlaces()).
template <bool Note>
const uint8_t *byShape(const Value::Encoding &Enc, const ShapeNode *Shape,
                       size_t N, FlatNode *Out,
                       std::vector<PayloadPlace> *Places) {
  const uint8_t *P = Enc.Data, *E = Enc.Data + Enc.Size;
  uint64_t Len;
  // The payload [From, P) of node I, a string's text from its length on.
  auto Place = [&](size_t I, const uint8_t *From, uint32_t N) {
    if constexpr (Note)
      Places->push_back({static_cast<uint32_t>(I),
                         static_cast<uint32_t>(From - Enc.Data), N,
                         Shape[I].K});
  };
  for (size_t I = 0; I < N; ++I) {
    FlatNode &Node = Out[I];
    if (Shape[I].Key)
      fastVarint(P, E, Len); // the key: the shape's, not looked at
    const uint8_t *TagAt = P;
    auto Tag = static_cast<Val>(*P++);
    const uint8_t *From = P;
    // As flattenAs() writes each kind's value.
    switch (Shape[I].K) {
    case Value::Kind::Bool:
      Node.B = Tag == Val::True;
      Place(I, TagAt, 0); // a bool's tag is its value
      break;
    case Value::Kind::Int:
      fastVarint(P, E, Node.U);
      Node.I = format::unzigzag(Node.U);
      Place(I, From, static_cast<uint32_t>(P - From));
      break;
    case Value::Kind::UInt:
      fastVarint(P, E, Node.U);
      Place(I, From, static_cast<uint32_t>(P - From));
      break;
    case Value::Kind::Float:
      std::memcpy(&Node.F, P, 8);
      P += 8;
      Place(I, From, 0);
      break;
    case Value::Kind::String:
      fastVarint(P, E, Len);
      Node.S = std::string_view(reinterpret_cast<const char *>(P),
                                static_cast<size_t>(Len));
      Place(I, P, static_cast<uint32_t>(Len));
      P += Len;
      break;
    case Value::Kind::Object:
    case Value::Kind::Array:
      fastVarint(P, E, Len); // a count: the same in every value of the number
      break;
    default: // Null: the tag alone
      break;
    }
  }
  return P;
}

} // namespace

const uint8_t *readByShape(const Value::Encoding &Enc, const ShapeNode *Shape,
                           size_t N, FlatNode *Out) {
  return byShape<false>(Enc, Shape, N, Out, nullptr);
}

bool payloadPlaces(const Value::Encoding &Enc, const ShapeNode *Shape, size_t N,
                   FlatNode *Out, std::vector<PayloadPlace> &Places) {
  Places.clear();
  return byShape<true>(Enc, Shape, N, Out, &Places) == Enc.Data + Enc.Size;
}

void readAtPlaces(const Value::Encoding &Enc,
                  const std::vector<PayloadPlace> &Places, FlatNode *Out) {
  for (const PayloadPlace &Pl : Places) {
    FlatNode &Node = Out[Pl.Node];
    const uint8_t *Q = Enc.Data + Pl.At;
    switch (Pl.K) {
    case Value::Kind::Bool:
      Node.B = static_cast<Val>(*Q) == Val::True;
      break;
    case Value::Kind::Int:
    case Value::Kind::UInt: {
      // Pl.Len bytes, the last without its high bit: no bounds to check.
      uint64_t V = Q[0] & 0x7f;
      for (uint32_t B = 1; B < Pl.Len && B < 10; ++B)
        V |= static_cast<uint64_t>(Q[B] & 0x7f) << (7 * B);
      Node.U = V;
      if (Pl.K == Value::Kind::Int)
        Node.I = format::unzigzag(V);
      break;
    }
    case Value::Kind::Float:
      std::memcpy(&Node.F, Q, 8);
      break;
    default: // String
      Node.S = std::string_view(reinterpret_cast<const char *>(Q), Pl.Len);
      break;
    }
  }
}

/// decodeValue without the value: true exactly where decodeValue would be
/// (an object key must have been defined before the block `BlockAt`).
const Value::Composite *Decoder::makeInPlace() {
  if (!EncKeys)
    EncKeys = encodedKeys();
  if (InPlaceOwner && !InPlace && EncKeys->Table)
    InPlace = Value::inPlaceSource(EncKeys->Table, InPlaceOwner);
  return InPlace.get();
}

bool Decoder::skipValue(Cursor &C, uint64_t BlockAt, unsigned Depth,
                        const uint8_t **Whole) {
  // The keys by id in a table made once (a hash lookup per key was most
  // of this walk); a file of sparse ids (corrupt) looks each one up.
  if (!EncKeys)
    EncKeys = encodedKeys();
  if (EncKeys->Table) {
    const std::vector<uint64_t> &At = EncKeys->DefinedAt;
    auto KeyOk = [&At, BlockAt](uint64_t Id) {
      return Id < At.size() && At[Id] < BlockAt;
    };
    const uint8_t *Start = C.pos();
    if (Depth == 0 && inPlaceShape(Start, Start + C.left())) {
      // Walked without a fault: its extent, for the events walk (or for
      // the caller, the one walk, which gives the value right away).
      if (const uint8_t *End = fastWalk(Start, Start + C.left(), 0, KeyOk)) {
        auto N = static_cast<size_t>(End - Start);
        if (Whole)
          *Whole = End;
        else if (N <= UINT32_MAX)
          Extents.push_back({Start, N});
        C.bytes(N);
        return true;
      }
      return walkValue<false>(C, 0, KeyOk);
    }
    return walk<false>(C, Depth, KeyOk);
  }
  return walkValue<false>(C, Depth, [this, BlockAt](uint64_t Id) {
    auto It = Strings.find(static_cast<uint32_t>(Id));
    return It != Strings.end() && Id <= UINT32_MAX &&
           It->second.second < BlockAt;
  });
}

bool Decoder::inPlaceShape(const uint8_t *At, const uint8_t *Bound) const {
  return InPlaceOwner && EncKeys && EncKeys->Table && At < Bound &&
         (static_cast<Val>(*At) == Val::Object ||
          static_cast<Val>(*At) == Val::Array);
}

const ValueSkeleton *Decoder::bySkeleton(const uint8_t *At,
                                         const uint8_t *Bound, uint64_t BlockAt,
                                         uint32_t Site, const uint8_t *&End) {
  if (Site >= Skeletons.size())
    return nullptr;
  SiteSkeletons &S = Skeletons[Site];
  size_t N = S.Known.size();
  for (size_t I = 0; I < N; ++I) {
    size_t K = (S.Last + I) % N;
    const ValueSkeleton &Sk = S.Known[K];
    if (Sk.keysAt() >= BlockAt)
      continue; // a key not defined yet there: the walk says what it means
    if ((End = Sk.match(At, Bound))) {
      S.Last = K;
      ++S.Hits;
      return &Sk;
    }
  }
  return nullptr;
}

const ValueSkeleton *Decoder::learnSkeleton(const uint8_t *At,
                                            const uint8_t *End, uint32_t Site) {
  if (Site >= Skeletons.size()) {
    if (Site >= T.Sites.size())
      return nullptr;
    Skeletons.resize(T.Sites.size());
  }
  SiteSkeletons &S = Skeletons[Site];
  ++S.Misses;
  if (!S.learns() || LastSkeleton == UINT16_MAX)
    return nullptr;
  ValueSkeleton Sk;
  if (!ValueSkeleton::make(At, End, EncKeys->DefinedAt, S.learnsExact(), Sk))
    return nullptr;
  Sk.Id = ++LastSkeleton;
  if (S.Known.size() < SiteSkeletons::Most) {
    S.Last = S.Known.size();
    S.Known.push_back(std::move(Sk));
  } else {
    S.Last = S.Next;
    S.Known[S.Next] = std::move(Sk);
    S.Next = (S.Next + 1) % SiteSkeletons::Most;
  }
  return &S.Known[S.Last];
}

bool Decoder::checkedValue(Cursor &C, Value &V, uint64_t BlockAt,
                           uint32_t Site) {
  const uint8_t *At = C.pos();
  const uint8_t *Bound = At + C.left();
  const uint8_t *Whole = nullptr;
  const ValueSkeleton *Sk = nullptr;
  // What skipValue() walks whole (a structured value at the top, kept in
  // place, its keys by table), by a skeleton of its site's first.
  bool Skeletal = EncodedValues && inPlaceShape(At, Bound);
  if ((Sk = Skeletal ? bySkeleton(At, Bound, BlockAt, Site, Whole) : nullptr)) {
    C.bytes(static_cast<size_t>(Whole - At));
  } else {
    Whole = nullptr;
    if (!skipValue(C, BlockAt, 0, &Whole))
      return false;
    if (Skeletal && Whole)
      Sk = learnSkeleton(At, Whole, Site);
  }
  // A structured value walked without a fault is whole (every key defined
  // before its block): kept where it is, not walked again.
  if (Whole && EncodedValues && inPlace() &&
      static_cast<size_t>(Whole - At) <= UINT32_MAX) {
    V = Value::encodedIn(static_cast<Val>(*At) == Val::Object
                             ? Value::Kind::Object
                             : Value::Kind::Array,
                         At, static_cast<uint32_t>(Whole - At), InPlace,
                         Sk ? Sk->Id : 0, Sk && Sk->Exact);
    return true;
  }
  Cursor Again(At, Bound);
  return decodeValue(Again, V);
}

} // namespace sonde::trace::detail
