//===- Trace.cpp - The decoded trace: values, sites, threads --------------===//
//
// The small accessors of sonde/trace.h's types: a Value's number, string,
// members and items (structures are shared, so events stay cheap to copy;
// a structure kept encoded is decoded on first use: ValueDecode.h),
// a site's top category, a trace's site and thread lookups.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "ValueDecode.h"

#include <cmath>
#include <mutex>
#include <unordered_map>

namespace sonde::trace {

// An in-place value's size sits in the padding after its kind.
static_assert(sizeof(void *) != 8 || sizeof(Value) == 32,
              "a Value is a kind, 8 bytes and a shared pointer");

struct Value::Composite {
  std::string S;
  /// An encoded value's members or items, made on first use.
  mutable Members M;
  mutable std::vector<Value> Items;
  /// Encoded (Value::encoded): its bytes and the strings its keys name.
  std::string Bytes;
  std::shared_ptr<const KeyTable> Keys;
  mutable std::once_flag Decoded;
  /// An in-place source (Value::inPlaceSource): what keeps its values'
  /// bytes alive, and their decoded forms, made when first asked for.
  std::shared_ptr<const void> Owner;
  struct InPlaceCache {
    std::mutex Lock;
    std::unordered_map<const uint8_t *, std::unique_ptr<Composite>> Of;
  };
  std::unique_ptr<InPlaceCache> Cache;

  /// Makes M or Items from the bytes, once (a value may be read from
  /// several threads, as any const object).
  void decode() const {
    if (Keys)
      std::call_once(Decoded, [this] {
        detail::decodeEncoded(
            Encoding{reinterpret_cast<const uint8_t *>(Bytes.data()),
                     Bytes.size(), Keys.get()},
            M, Items);
      });
  }
};

const std::string &Value::str() const {
  static const std::string Empty;
  return C ? C->S : Empty;
}

const Value::Composite &Value::decodedInPlace() const {
  Composite::InPlaceCache &Cache = *C->Cache;
  std::lock_guard<std::mutex> G(Cache.Lock);
  std::unique_ptr<Composite> &D = Cache.Of[At];
  if (!D) {
    D = std::make_unique<Composite>();
    detail::decodeEncoded(Encoding{At, InPlaceSize, C->Keys.get()}, D->M,
                          D->Items);
  }
  return *D; // never moves: the map holds a pointer to it
}

const Value::Members &Value::members() const {
  static const Members Empty;
  if (!C)
    return Empty;
  if (InPlaceSize)
    return decodedInPlace().M;
  C->decode();
  return C->M;
}

const std::vector<Value> &Value::items() const {
  static const std::vector<Value> Empty;
  if (!C)
    return Empty;
  if (InPlaceSize)
    return decodedInPlace().Items;
  C->decode();
  return C->Items;
}

const Value *Value::get(std::string_view Key) const {
  for (const auto &KV : members())
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
}

static_assert(sizeof(Value) == 32, "Value::Shape is in the padding after K");

Value::Encoding Value::encoding() const {
  if (InPlaceSize && C)
    return {At, InPlaceSize, C->Keys.get(), Shape, ShapeExact};
  if (!C || !C->Keys)
    return {};
  return {reinterpret_cast<const uint8_t *>(C->Bytes.data()), C->Bytes.size(),
          C->Keys.get()};
}

Value Value::encoded(Kind K, std::string Bytes,
                     std::shared_ptr<const KeyTable> Keys) {
  Value V;
  V.K = K;
  auto P = std::make_shared<Composite>();
  P->Bytes = std::move(Bytes);
  P->Keys = std::move(Keys);
  V.C = std::move(P);
  return V;
}

std::shared_ptr<const Value::Composite>
Value::inPlaceSource(std::shared_ptr<const KeyTable> Keys,
                     std::shared_ptr<const void> Owner) {
  auto P = std::make_shared<Composite>();
  P->Keys = std::move(Keys);
  P->Owner = std::move(Owner);
  P->Cache = std::make_unique<Composite::InPlaceCache>();
  return P;
}

Value Value::encodedIn(Kind K, const uint8_t *Data, uint32_t Size,
                       std::shared_ptr<const Composite> Source, uint16_t Shape,
                       bool ShapeExact) {
  Value V;
  V.K = K;
  V.Shape = Shape;
  V.ShapeExact = Shape && ShapeExact;
  V.InPlaceSize = Size;
  V.At = Data;
  V.C = std::move(Source);
  return V;
}

Value Value::string(std::string S) {
  Value V;
  V.K = Kind::String;
  auto P = std::make_shared<Composite>();
  P->S = std::move(S);
  V.C = std::move(P);
  return V;
}

Value Value::object(Members M) {
  Value V;
  V.K = Kind::Object;
  auto P = std::make_shared<Composite>();
  P->M = std::move(M);
  V.C = std::move(P);
  return V;
}

Value Value::array(std::vector<Value> Items) {
  Value V;
  V.K = Kind::Array;
  auto P = std::make_shared<Composite>();
  P->Items = std::move(Items);
  V.C = std::move(P);
  return V;
}

std::string SiteInfo::topCategory() const {
  return Category.substr(0, Category.find('.'));
}

const SiteInfo &Trace::unknownSite() {
  static const SiteInfo Unknown;
  return Unknown;
}

const ThreadInfo *Trace::thread(uint32_t Index) const {
  for (const ThreadInfo &TI : Threads)
    if (TI.Index == Index)
      return &TI;
  return nullptr;
}

uint64_t Trace::tid(uint32_t Index) const {
  const ThreadInfo *TI = thread(Index);
  return TI ? TI->Tid : Index;
}

} // namespace sonde::trace
