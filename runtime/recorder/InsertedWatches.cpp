//===- InsertedWatches.cpp - The watches inserted code shares -------------===//
//
// watchSharedAt (sonde/detail/Inserted.h): the record writers of the types
// that inserted watches are written as (WrittenAs) and that most of them
// are, compiled once here. Other types keep their writer in the header,
// one instance per type in each translation unit that watches one.
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

} // namespace sonde::rt::detail
