//===- InsertedWatches.cpp - The watches inserted code shares -------------===//
//
// watchSharedAt (sonde/detail/Inserted.h): the record writers of the types
// that inserted watches are written as (WrittenAs) and that most of them
// are, compiled once here; and watchErased, the record around the value of
// any other type (a tensor, a container), whose own writer is the one
// instance per type a translation unit that watches one compiles.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

namespace sonde::rt::detail {

void watchSharedAt(const SiteTable &Tb, uint32_t I, int64_t V) noexcept {
  watchScalarOr(Tb[I], V);
}

void watchSharedAt(const SiteTable &Tb, uint32_t I, uint64_t V) noexcept {
  watchScalarOr(Tb[I], V);
}

void watchSharedAt(const SiteTable &Tb, uint32_t I, double V) noexcept {
  watchScalarOr(Tb[I], V);
}

void watchSharedAt(const SiteTable &Tb, uint32_t I, bool V) noexcept {
  watchScalarOr(Tb[I], V);
}

void watchSharedAt(const SiteTable &Tb, uint32_t I,
                   const volatile void *V) noexcept {
  watchScalarOr(Tb[I], V);
}

void watchErased(const Site &S, const void *P, ErasedWriter Write,
                 uint32_t Max) noexcept {
  writeStructuredWatch(S, Max,
                       [&](ValueWriter &W) { Write(W, P, summaryOf(S)); });
}

} // namespace sonde::rt::detail
