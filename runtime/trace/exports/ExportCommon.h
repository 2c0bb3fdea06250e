//===- ExportCommon.h - What the export formats share --------- -*- C++ -*-===//
//
// The small pieces several exports write the same way: an event kind's
// name, a stable id and the time origin as text, an API call record's phase
// and call id, times in whole microseconds. The exports' entry points and the
// helpers the tools share (eventName, scalarOf, timeOrigin, stringHash) are
// declared in Export.h.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_EXPORTS_EXPORTCOMMON_H
#define SONDE_TRACE_EXPORTS_EXPORTCOMMON_H

#include "Export.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sonde::trace {

/// What eventName() adds to the site's name: ".start", ".stop" or "" (the
/// exports write the two parts as one string, with no string made).
std::string_view eventSuffix(const Event &E);

/// SiteInfo::topCategory() as a view of the category: no string made.
std::string_view topCategoryOf(const SiteInfo &S);

/// "region", "instant" or "watch".
const char *kindName(EventKind K);
/// As kindName, and "alarm" for an alarm (a watch's failed `check:`).
const char *kindName(const Event &E);

/// A site's stable id as `sonde-rewrite --list-sites` prints it: 16
/// lowercase hex digits (a string: as a JSON number, a 64-bit id would be
/// rounded by readers that hold numbers as doubles).
std::string stableIdText(uint64_t Id);

/// The absolute time `Origin` as a string of decimal nanoseconds since the
/// Unix epoch (above 2^53: exact only as text).
std::string unixNsText(int64_t Origin);

/// An API record's phase ("pre", "post", "error"), or "" when it has none.
std::string apiPhase(const Value &V);
/// An API record's call id, or 0 when it has none.
uint64_t apiCall(const Value &V);

/// Nanoseconds as whole microseconds, rounded down (also below zero).
int64_t microsFloor(int64_t Ns);

} // namespace sonde::trace

#endif // SONDE_TRACE_EXPORTS_EXPORTCOMMON_H
