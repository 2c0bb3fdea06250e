//===- sonde/site.h - The site protocol, defined once -----------*- C++ -*-===//
//
// The facts the engine, the recorder and the reader must agree on: what kind
// of site a probe is, its flag bits, the summaries a watch asks for, and the
// tags of the recorded value encoding. The engine (rewriter/) generates
// inserted code from these names, libsonde records by them, the trace format
// (runtime/format/TraceFormat.h) asserts its own numbering against them, and
// the reader (sonde/trace.h) and every tool use them. Renumber here and the
// three move together; nothing else may restate a number of this protocol.
//
// No dependency beyond <cstdint>: the engine includes this header without
// the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_SITE_H
#define SONDE_SITE_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "detail/Compiler.h"

#include <cstdint>

namespace sonde {

/// What a probe site records. The numbers are on disk (Site blocks).
enum class SiteKind : uint8_t {
  Region = 1,  ///< something with a duration (RAII or begin/end)
  Instant = 2, ///< a point in time
  Watch = 3,   ///< a value at a point in time
  Loop = 4,    ///< iterations of a loop: `<name>.iter` and `<name>.block`
  Frame = 5,   ///< a context frame (`A` in `A > B > x`): records nothing
  State = 6,   ///< a model's state (sonde::recordState in sonde/torch.h):
               ///< one watch record per parameter
  Api = 7,     ///< calls of a library function (`apis:`): see ApiCall
};

/// The enumerator's name, as inserted code spells it
/// (`::sonde::SiteKind::Region`).
constexpr const char *siteKindName(SiteKind K) noexcept {
  switch (K) {
  case SiteKind::Region:
    return "Region";
  case SiteKind::Instant:
    return "Instant";
  case SiteKind::Watch:
    return "Watch";
  case SiteKind::Loop:
    return "Loop";
  case SiteKind::Frame:
    return "Frame";
  case SiteKind::State:
    return "State";
  case SiteKind::Api:
    return "Api";
  }
  return "";
}

/// Site flags, fixed at compile time. The low bits of Site::Flags; the
/// summary a watch asks for sits above them (SummaryShift).
enum SiteFlags : uint8_t {
  /// `enabled: false` in the spec: compiled in, off until enabled at run time.
  OffByDefault = 1,
  /// `mode: instant`: a region recorded as a start and a stop instant.
  InstantMode = 2,
  /// `context: true`: the site's args apply to every nested record.
  ContextArgs = 4,
  /// `check: finite` on a watch: a floating-point value that is NaN or
  /// infinite also makes an alarm record (and, with SONDE_ON_CHECK=abort,
  /// ends the process). Above the summary bits.
  CheckFinite = 64,
};

/// How a watch summarizes a structured value (`summary:` in the spec). Kept
/// in bits 3..5 of Site::Flags (summaryFlags); a ValueTraits specialization
/// with a `write(ValueWriter &, const T &, Summary)` overload receives it.
/// `Default` lets the type choose (`shape` for tensors, `stats` for
/// containers of numbers); scalars ignore it.
enum class Summary : uint8_t {
  Default = 0,
  Value = 1, ///< the value itself (scalars, strings)
  Shape = 2, ///< dtype, device, shape, element count
  Stats = 3, ///< shape plus min, max, mean, std, L2 norm, NaN and Inf counts
  Hash = 4,  ///< shape plus a content hash (did it change between steps?)
  Full = 5,  ///< shape plus the values, capped (see the type's MaxBytes)
};
constexpr unsigned SummaryShift = 3;
constexpr uint8_t SummaryMask = 7u << SummaryShift;
static_assert((SummaryMask &
               (OffByDefault | InstantMode | ContextArgs | CheckFinite)) == 0,
              "the summary bits lie apart from the flag bits");
static_assert((unsigned(Summary::Full) << SummaryShift) <= SummaryMask,
              "every summary fits its bits");

/// The enumerator's name, as inserted code spells it
/// (`::sonde::Summary::Stats`); the spec spells it in lower case (`stats`).
constexpr const char *summaryName(Summary S) noexcept {
  switch (S) {
  case Summary::Default:
    return "Default";
  case Summary::Value:
    return "Value";
  case Summary::Shape:
    return "Shape";
  case Summary::Stats:
    return "Stats";
  case Summary::Hash:
    return "Hash";
  case Summary::Full:
    return "Full";
  }
  return "";
}

/// The flag bits that ask for summary S.
constexpr uint8_t summaryFlags(Summary S) noexcept {
  return static_cast<uint8_t>(unsigned(S) << SummaryShift);
}

/// The summary a site's flags ask for.
SONDE_NODEBUG constexpr Summary summaryOfFlags(uint8_t Flags) noexcept {
  return static_cast<Summary>((Flags & SummaryMask) >> SummaryShift);
}

/// The text of a site table (sonde::SiteTable, sonde/detail/Inserted.h): the
/// descriptors of one function's inserted sites in one string literal,
/// every field ended by TableSeparator. The engine writes it, libsonde
/// decodes it on the table's first use. First the table's own fields
/// (TableHeader), then, per site, the site's fields in TableField order.
/// Numbers are written in text: decimal, the stable id in hexadecimal. The
/// separator is a newline, which no name holds (the engine drops it from
/// every string it inserts) and which the literal spells `\n`, so an
/// insertion never breaks a line.
constexpr char TableSeparator = '\n';
/// The numbering of a site table's text: bump it when a number of this
/// protocol (a SiteKind, a flag bit, a field's place) changes. Text from an
/// engine of another version is refused at run time, said once, not misread
/// (an instrumented copy may outlive the engine that wrote it).
constexpr unsigned SiteTableVersion = 1;
enum class TableHeader : uint8_t {
  Version,  ///< SiteTableVersion of the engine that wrote it
  Count,    ///< how many sites follow
  File,     ///< the original source file, shared by every site
  Function, ///< the qualified name of the function, shared by every site
  Fields    ///< (how many header fields there are)
};
enum class TableField : uint8_t {
  Kind,     ///< the SiteKind's number
  Flags,    ///< the flag bits (SiteFlags and the summary)
  Line,     ///< the source line
  StableId, ///< the plan's id, hexadecimal
  Category, ///< as in sonde::Site
  Name,
  Args,
  Type,
  Fields ///< (how many fields a site has)
};

/// The arg under which a region records how many items it processed (the
/// spec's `items:`, docs/probe-spec.md). Not a C++ identifier, so no `args:`
/// name or capture can take it. It is the region's own: the reader never
/// passes it on as context to nested records (a site with `context: true`
/// keeps it to itself), and `sonde summary` computes rates from it
/// (docs/rates.md).
constexpr const char *ItemsArg = "sonde.items";

namespace rt {

/// Tags of the raw value encoding used by watches and args in the ring. The
/// disk encoding (TraceFormat.h, `Val`) shares the numbers of the tags it
/// keeps and asserts so.
enum class ValueTag : uint8_t {
  Null = 0,
  False = 1,
  True = 2,
  Int = 3,        ///< int64
  UInt = 4,       ///< uint64
  Float = 5,      ///< double
  String = 6,     ///< u16 length, bytes
  Key = 7,        ///< a `const char *` to a string literal (object keys)
  Object = 8,     ///< u16 count, then count (Key, value) pairs
  Array = 9,      ///< u32 count, then count values
  Truncated = 10, ///< the value did not fit; what came before is kept
};

} // namespace rt
} // namespace sonde

#endif // SONDE_SITE_H
