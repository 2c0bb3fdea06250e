//===- sonde/detail/StaticSite.h - One probe site's static facts ----------===//
//
// `sonde::Site`: what instrumentation emits once per probe site, as a
// constant-initialized function-local `static` (Quill's macro metadata).
// Records carry only the site's dense id; the writer copies these facts into
// the trace once. The numbers inside it (kinds, flags, summaries) are
// sonde/site.h's.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_STATICSITE_H
#define SONDE_DETAIL_STATICSITE_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "../site.h"
#include "Atomic.h"
#include "Compiler.h"

#include <cstdint>

namespace sonde {

// SiteKind, SiteFlags, Summary and the value tags: sonde/site.h.

/// The static facts of one probe site. Instrumentation emits one per site as
/// a function-local `static`, which is constant-initialized (no guard, no
/// constructor at run time); records carry only the site's id.
///
/// All strings must outlive the program (string literals).
struct Site {
  constexpr Site(SiteKind Kind, const char *Category, const char *Name,
                 const char *File, uint32_t Line, const char *Function,
                 uint64_t StableId = 0, uint8_t Flags = 0,
                 const char *Args = "", const char *Type = "") noexcept
      : Kind(Kind), Flags(Flags), Line(Line), Category(Category), Name(Name),
        File(File), Function(Function), Args(Args), Type(Type),
        StableId(StableId) {}
  Site(const Site &) = delete;
  Site &operator=(const Site &) = delete;

  SiteKind Kind;
  uint8_t Flags;
  uint32_t Line;
  const char *Category; ///< `compute.forward`, `compute`, `user.x`
  const char *Name;     ///< the event name
  const char *File;     ///< the original source file
  const char *Function; ///< the qualified name of the enclosing function
  const char *Args;     ///< comma-separated arg names: "epoch,step"
  const char *Type;     ///< the watched type as written, or ""
  uint64_t StableId;    ///< the plan's id (0 for hand-written sites)

  /// Run-time state, written by the registry (any thread, under its lock)
  /// and read by probes with relaxed loads: 0 = not registered yet; else the
  /// dense id in the low bits and `OnBit` when the site records.
  mutable rt::detail::Atomic<uint32_t> State{0};
  static constexpr uint32_t OnBit = 1u << 31;
  static constexpr uint32_t IdMask = OnBit - 1;
};

/// The summary a watch site asks for (bits 3..5 of its flags).
SONDE_NODEBUG constexpr Summary summaryOf(const Site &S) noexcept {
  return summaryOfFlags(S.Flags);
}

} // namespace sonde

#endif // SONDE_DETAIL_STATICSITE_H
