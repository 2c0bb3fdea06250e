//===- sonde/sonde.h - The probe-site API of libsonde -----------*- C++ -*-===//
//
// The only header a probe site needs. Everything here is on the hot path of
// an instrumented program: recording an event is a timestamp read, a few
// stores into a per-thread ring buffer and one release store. No lock, no
// allocation, no formatting, no system call; anything slow (registration,
// the first event of a thread, a full buffer) is out of line in libsonde.
//
// Hand-written use (what DFTracer's decorators and context managers are in
// Python):
//
//   void Net::forward() {
//     SONDE_REGION("compute.forward", "forward");    // RAII: closes on exit
//     ...
//     SONDE_WATCH("loss", Loss);                      // a value, now
//   }
//
// Instrumented code (from sonde-rewrite or the plugin) uses the same types
// with a static site descriptor per probe site, see `sonde::Site`.
//
// This header is the umbrella; each concept has a part of its own beside it
// (include this one, not the parts):
//
//   sonde/site.h             the protocol: site kinds, flags, summaries, tags
//   sonde/detail/Compiler.h  branch hints and inlining attributes
//   sonde/detail/StaticSite.h  sonde::Site, one probe site's static facts
//   sonde/detail/Ring.h      the per-thread ring and the raw record layout
//   sonde/detail/Clock.h     sonde::now(), the raw timestamp
//   sonde/detail/Values.h    value encoding: ValueWriter, ValueTraits
//   sonde/detail/Records.h   writing one record of each kind
//   sonde/detail/Probes.h    the hand-written API (SONDE_REGION, ...)
//   sonde/detail/Iterate.h   recorded range-for loops (sonde::iterate)
//   sonde/detail/Inserted.h  what only inserted code calls (CondRegion, ...)
//   sonde/detail/ApiCall.h   recorded calls of `apis:` (sonde::api)
//   sonde/detail/Items.h     a probe's item count (`items:`, sonde::itemCount)
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_SONDE_H
#define SONDE_SONDE_H

// This header is -included into code nobody here wrote, under that code's
// warning flags: its own warnings (g++'s -Wshadow on constructor parameters,
// found on jsoncpp) are not the user's to fix, and under -Werror they would
// break the build. sonde's own targets define SONDE_HEADER_WARNINGS.
#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

// Instrumented code and this header use C++17 (if constexpr, string_view).
// A project that pins an older standard (jsoncpp sets CMAKE_CXX_STANDARD 11)
// would otherwise get a hundred errors from inside this header.
#if defined(__cplusplus) && __cplusplus < 201703L && !defined(_MSVC_LANG)
#error "sonde: instrumented code needs C++17 or later (-std=c++17)"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string_view>
#include <type_traits>
#include <utility>

#include "site.h" // beside this header, as sonde.h is to its users

#include "detail/ApiCall.h"
#include "detail/Clock.h"
#include "detail/Compiler.h"
#include "detail/Inserted.h"
#include "detail/Items.h"
#include "detail/Iterate.h"
#include "detail/Probes.h"
#include "detail/Records.h"
#include "detail/Ring.h"
#include "detail/StaticSite.h"
#include "detail/Values.h"

#endif // SONDE_SONDE_H
