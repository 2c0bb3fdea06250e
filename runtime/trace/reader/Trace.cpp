//===- Trace.cpp - The decoded trace: values, sites, threads --------------===//
//
// The small accessors of sonde/trace.h's types: a Value's number, string,
// members and items (structures are shared, so events stay cheap to copy),
// a site's top category, a trace's site and thread lookups.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include <cmath>

namespace sonde::trace {

double Value::number() const {
  switch (K) {
  case Kind::Int:
    return static_cast<double>(I);
  case Kind::UInt:
    return static_cast<double>(U);
  case Kind::Float:
    return F;
  case Kind::Bool:
    return B ? 1 : 0;
  default:
    return NAN;
  }
}

struct Value::Composite {
  std::string S;
  Members M;
  std::vector<Value> Items;
};

const std::string &Value::str() const {
  static const std::string Empty;
  return C ? C->S : Empty;
}

const Value::Members &Value::members() const {
  static const Members Empty;
  return C ? C->M : Empty;
}

const std::vector<Value> &Value::items() const {
  static const std::vector<Value> Empty;
  return C ? C->Items : Empty;
}

const Value *Value::get(std::string_view Key) const {
  for (const auto &KV : members())
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
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
