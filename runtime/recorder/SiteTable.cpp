//===- SiteTable.cpp - Decoding the site tables of inserted code ----------===//
//
// Inserted code declares one sonde::SiteTable per function: the descriptors
// of its sites as one string literal (sonde/site.h, TableHeader and
// TableField), which costs the compiler one constant evaluation where a
// `static Site` per site cost one each. Here the text becomes `Site`s, on
// the table's first use: one copy of the text, its separators made NULs, to
// which the sites' strings point (immortal, as a Site's strings must be).
// Decoding does not register: each site still registers on its own first
// hit, so the trace has the same sites in the same order as with one
// `static Site` per site.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace sonde::rt::detail {
namespace {

/// The next field of a decoded copy (its separator made a NUL).
const char *nextField(char *&P) noexcept {
  char *F = P;
  while (*P && *P != TableSeparator)
    ++P;
  if (*P)
    *P++ = '\0';
  return F;
}

/// A site that never records: registered (a state that is not 0) and off,
/// with an id no frame slot has. What a table gives when memory runs out.
const Site &deadSite() noexcept {
  static Site Dead(SiteKind::Watch, "", "", "", 0, "");
  Dead.State.store(Site::IdMask, rt::detail::MemOrder::Relaxed);
  return Dead;
}

/// The sites of `T`'s text, or null when memory runs out; `Copy` is the
/// decoded copy of the text their strings point to.
Site *decode(const SiteTable &T, char *&Copy) noexcept {
  size_t Bytes = std::strlen(T.Text) + 1;
  auto *P = static_cast<char *>(std::malloc(Bytes));
  if (!P)
    return nullptr;
  std::memcpy(P, T.Text, Bytes);
  Copy = P;
  const char *Header[unsigned(TableHeader::Fields)];
  for (const char *&F : Header)
    F = nextField(P);
  if (std::strtoul(Header[unsigned(TableHeader::Version)], nullptr, 10) !=
      SiteTableVersion) {
    static std::atomic<bool> Said{false};
    if (!Said.exchange(true))
      std::fprintf(stderr,
                   "sonde: %s: instrumented by a sonde whose site tables "
                   "are not version %u; its sites (in '%s', ...) record "
                   "nothing: instrument it again\n",
                   Header[unsigned(TableHeader::File)], SiteTableVersion,
                   Header[unsigned(TableHeader::Function)]);
    std::free(Copy);
    return nullptr;
  }
  unsigned long N =
      std::strtoul(Header[unsigned(TableHeader::Count)], nullptr, 10);
  auto *Sites =
      static_cast<Site *>(::operator new(N * sizeof(Site), std::nothrow));
  if (!Sites) {
    std::free(Copy);
    return nullptr;
  }
  for (unsigned long I = 0; I < N; ++I) {
    const char *F[unsigned(TableField::Fields)];
    for (const char *&Field : F)
      Field = nextField(P);
    auto Num = [&F](TableField Which, int Base) {
      return std::strtoull(F[unsigned(Which)], nullptr, Base);
    };
    new (Sites + I) Site(
        static_cast<SiteKind>(Num(TableField::Kind, 10)),
        F[unsigned(TableField::Category)], F[unsigned(TableField::Name)],
        Header[unsigned(TableHeader::File)],
        static_cast<uint32_t>(Num(TableField::Line, 10)),
        Header[unsigned(TableHeader::Function)], Num(TableField::StableId, 16),
        static_cast<uint8_t>(Num(TableField::Flags, 10)),
        F[unsigned(TableField::Args)], F[unsigned(TableField::Type)]);
  }
  return Sites;
}

} // namespace

const Site &tableSite(const SiteTable &T, uint32_t I) noexcept {
  const Site *S = T.sites();
  if (!S) {
    char *Copy = nullptr;
    Site *Mine = decode(T, Copy);
    if (!Mine)
      return deadSite();
    // Two threads may decode at once: the first to publish wins, and the
    // other's copy was never seen by anyone (nothing registered it).
    // (SiteTable::Sites is a plain pointer written with atomic builtins:
    // libsonde is built by g++ or clang.)
    const Site *Expected = nullptr;
    if (__atomic_compare_exchange_n(&T.Sites, &Expected, Mine,
                                    /*weak=*/false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      S = Mine;
    } else {
      ::operator delete(Mine);
      std::free(Copy);
      S = Expected;
    }
  }
  return S[I];
}

} // namespace sonde::rt::detail
