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
constexpr size_t MostNodes = 256;
/// An exact skeleton's longest string held as a span's bytes: a longer one
/// is stepped over by its length, as a general skeleton does.
constexpr uint64_t MostExactString = 256;

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

} // namespace

void ValueSkeleton::addByte(uint8_t B, uint8_t Mask) {
  if (OpenLen % 8 == 0)
    Words.push_back({0, 0});
  unsigned Shift = 8 * (OpenLen % 8);
  Words.back().Lead |= static_cast<uint64_t>(B & Mask) << Shift;
  Words.back().Mask |= static_cast<uint64_t>(Mask) << Shift;
  ++OpenLen;
}

void ValueSkeleton::endSpan(Pay Then) {
  auto First = static_cast<uint32_t>(Words.size() - (OpenLen + 7) / 8);
  Spans.push_back({OpenLen, First, (OpenLen + 7) / 8, Then});
  OpenLen = 0;
}

bool ValueSkeleton::make(const uint8_t *P, const uint8_t *End,
                         const std::vector<uint64_t> &DefinedAt, bool Exact,
                         ValueSkeleton &Out) {
  Out.Spans.clear();
  Out.Words.clear();
  Out.OpenLen = 0;
  Out.KeysAt = 0;
  Out.Exact = Exact;
  auto Fixed = [&Out](const uint8_t *From, const uint8_t *To) {
    for (; From < To; ++From)
      Out.addByte(*From, 0xff);
  };
  // An exact skeleton's varint: as long as this one (each byte's high bit).
  auto SameLength = [&Out](const uint8_t *From, const uint8_t *To) {
    for (; From < To; ++From)
      Out.addByte(*From, 0x80);
  };
  // Preorder, with the items left in each open object or array.
  struct Open {
    uint64_t Left;
    bool Object;
  };
  std::vector<Open> Stack;
  size_t Nodes = 0;
  for (bool Root = true; Root || !Stack.empty(); Root = false) {
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
        if (Id >= DefinedAt.size())
          return false;
        Fixed(KeyAt, P);
        Out.KeysAt = std::max(Out.KeysAt, DefinedAt[Id]);
      }
    }
    if (++Nodes > MostNodes || P >= End)
      return false;
    auto Tag = static_cast<Val>(*P);
    if (Tag == Val::False || Tag == Val::True) {
      Out.endSpan(Pay::Bool); // the tag is the value: not fixed
      ++P;
      continue;
    }
    Fixed(P, P + 1);
    ++P;
    switch (Tag) {
    case Val::Null:
      break;
    case Val::Int:
    case Val::UInt: {
      const uint8_t *At = P;
      soundVarint(P);
      if (Exact)
        SameLength(At, P);
      else
        Out.endSpan(Pay::Varint);
      break;
    }
    case Val::Float:
      for (int I = 0; I < 8; ++I)
        Out.addByte(0, 0);
      P += 8;
      break;
    case Val::String: {
      const uint8_t *At = P;
      uint64_t Len = soundVarint(P);
      if (Len > static_cast<uint64_t>(End - P))
        return false;
      if (Exact && Len <= MostExactString) {
        Fixed(At, P);
        for (uint64_t I = 0; I < Len; ++I)
          Out.addByte(0, 0);
      } else {
        Out.endSpan(Pay::Str);
      }
      P += Len;
      break;
    }
    case Val::Object:
    case Val::Array: {
      const uint8_t *CountAt = P;
      uint64_t Count = soundVarint(P);
      Fixed(CountAt, P);
      Stack.push_back({Count, Tag == Val::Object});
      break;
    }
    default: // Truncated: its list ends early, which a skeleton cannot say
      return false;
    }
    if (P > End)
      return false;
  }
  Out.endSpan(Pay::None);
  return P == End;
}

const uint8_t *ValueSkeleton::match(const uint8_t *P, const uint8_t *E) const {
  const Word *W = Words.data();
  for (const Span &S : Spans) {
    auto Left = static_cast<size_t>(E - P);
    if (Left < S.Len)
      return nullptr;
    // Whole words, each its own test: a skeleton that does not fit most
    // often differs in its first word (a string's length, a count).
    const Word *SW = W + S.First;
    uint32_t Full = S.Len / 8;
    for (uint32_t I = 0; I < Full; ++I) {
      uint64_t V;
      std::memcpy(&V, P + 8 * I, 8);
      if ((V & SW[I].Mask) != SW[I].Lead)
        return nullptr;
    }
    if (uint32_t Tail = S.Len % 8) {
      // The last word's bytes past the span are masked; read without
      // passing E.
      uint64_t V = 0;
      if (Left >= 8 * size_t(Full) + 8) {
        std::memcpy(&V, P + 8 * Full, 8);
      } else if (Full) {
        std::memcpy(&V, P + S.Len - 8, 8);
        V >>= 8 * (8 - Tail);
      } else {
        for (uint32_t I = 0; I < Tail; ++I)
          V |= static_cast<uint64_t>(P[I]) << (8 * I);
      }
      if ((V & SW[Full].Mask) != SW[Full].Lead)
        return nullptr;
    }
    P += S.Len;
    uint64_t N;
    switch (S.Then) {
    case Pay::None:
      break;
    case Pay::Varint:
      if (!fastVarint(P, E, N))
        return nullptr;
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
