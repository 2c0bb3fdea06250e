//===- ValueSkeleton.cpp - A value's structure, by number -----------------===//
//
// ValueSkeleton.h says why. make() walks a value the checking walk accepted
// (so it needs no checks of its own, only a skeleton's limits); match() is
// the checking walk's answer for values of that structure.
//
//===----------------------------------------------------------------------===//

#include "ValueSkeleton.h"

#include "TraceFormat.h"
#include "ValueDecode.h"

#include <algorithm>
#include <cstring>

namespace sonde::trace::detail {
namespace {

using format::Val;

/// Nodes of a skeleton: a model state record has about thirty.
constexpr size_t MostSteps = 256;

/// The varint at P, which a sound value holds, P then past it.
uint64_t soundVarint(const uint8_t *&P) {
  uint64_t V = 0;
  for (unsigned Shift = 0;; Shift += 7) {
    uint8_t B = *P++;
    if (Shift < 64)
      V |= static_cast<uint64_t>(B & 0x7f) << Shift;
    if (!(B & 0x80))
      return V;
  }
}

/// Appends the bytes [From, To) to a node's fixed bytes; false past four.
bool addFixed(const uint8_t *From, const uint8_t *To, uint32_t &Lead,
              unsigned &LeadLen) {
  auto N = static_cast<size_t>(To - From);
  if (LeadLen + N > 4)
    return false;
  for (size_t I = 0; I < N; ++I)
    Lead |= static_cast<uint32_t>(From[I]) << (8 * (LeadLen + I));
  LeadLen += static_cast<unsigned>(N);
  return true;
}

} // namespace

bool ValueSkeleton::make(const uint8_t *P, const uint8_t *End,
                         const std::vector<uint64_t> &DefinedAt,
                         ValueSkeleton &Out) {
  Out.Steps.clear();
  Out.KeysAt = 0;
  // Preorder, with the items left in each open object or array.
  struct Open {
    uint64_t Left;
    bool Object;
  };
  std::vector<Open> Stack;
  for (bool Root = true; Root || !Stack.empty(); Root = false) {
    uint32_t Lead = 0;
    unsigned LeadLen = 0;
    if (!Root) {
      Open &O = Stack.back();
      if (O.Left == 0) {
        Stack.pop_back();
        continue;
      }
      --O.Left;
      if (O.Object) {
        const uint8_t *KeyAt = P;
        uint64_t Id = soundVarint(P);
        if (Id >= DefinedAt.size() || !addFixed(KeyAt, P, Lead, LeadLen))
          return false;
        Out.KeysAt = std::max(Out.KeysAt, DefinedAt[Id]);
      }
    }
    if (Out.Steps.size() >= MostSteps || P >= End)
      return false;
    auto Tag = static_cast<Val>(*P);
    Step S;
    S.P = Pay::None;
    if (Tag == Val::False || Tag == Val::True) {
      S.P = Pay::Bool; // the tag is the value: not fixed
    } else if (!addFixed(P, P + 1, Lead, LeadLen)) {
      return false;
    }
    ++P;
    switch (Tag) {
    case Val::Null:
    case Val::False:
    case Val::True:
      break;
    case Val::Int:
    case Val::UInt:
      S.P = Pay::Varint;
      soundVarint(P);
      break;
    case Val::Float:
      S.P = Pay::F64;
      P += 8;
      break;
    case Val::String: {
      S.P = Pay::Str;
      uint64_t Len = soundVarint(P);
      if (Len > static_cast<uint64_t>(End - P))
        return false;
      P += Len;
      break;
    }
    case Val::Object:
    case Val::Array: {
      const uint8_t *CountAt = P;
      uint64_t Count = soundVarint(P);
      if (!addFixed(CountAt, P, Lead, LeadLen))
        return false;
      Stack.push_back({Count, Tag == Val::Object});
      break;
    }
    default: // Truncated: its list ends early, which a skeleton cannot say
      return false;
    }
    if (P > End)
      return false;
    S.Lead = Lead;
    S.LeadLen = static_cast<uint8_t>(LeadLen);
    S.Mask = LeadLen >= 4 ? ~0u : (1u << (8 * LeadLen)) - 1;
    Out.Steps.push_back(S);
  }
  return P == End;
}

const uint8_t *ValueSkeleton::match(const uint8_t *P, const uint8_t *E) const {
  for (const Step &S : Steps) {
    auto Left = static_cast<size_t>(E - P);
    if (Left < S.LeadLen)
      return nullptr;
    uint32_t W = 0;
    if (Left >= 4)
      std::memcpy(&W, P, 4);
    else
      for (size_t I = 0; I < Left; ++I)
        W |= static_cast<uint32_t>(P[I]) << (8 * I);
    if ((W & S.Mask) != S.Lead)
      return nullptr;
    P += S.LeadLen;
    uint64_t N;
    switch (S.P) {
    case Pay::None:
      break;
    case Pay::Varint:
      if (!fastVarint(P, E, N))
        return nullptr;
      break;
    case Pay::F64:
      if (E - P < 8)
        return nullptr;
      P += 8;
      break;
    case Pay::Str:
      if (!fastVarint(P, E, N) || static_cast<uint64_t>(E - P) < N)
        return nullptr;
      P += N;
      break;
    case Pay::Bool:
      if (P >= E || (static_cast<Val>(*P) != Val::False &&
                     static_cast<Val>(*P) != Val::True))
        return nullptr;
      ++P;
      break;
    }
  }
  return P;
}

} // namespace sonde::trace::detail
