//===- Conditions.h - `sonde live --fail-on` conditions --------*- C++ -*-===//
//
// A condition names a watched scalar and what must not happen to it:
//
//   loss: nan|inf      the value is NaN or infinite (either or both)
//   loss > 10          a comparison with a number: <, <=, >, >=
//
// NAME is a watch's name (`loss`) or its `category/name`. The value is the
// watch's number, or the `value` of a one-element tensor's summary, as
// `sonde summary` takes it (scalarOf, Export.h). Every string that is not
// a condition gets an error that says where, and what was expected there.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_CONDITIONS_H
#define SONDE_TRACE_LIVE_CONDITIONS_H

#include "sonde/trace.h"

#include <string>

namespace sonde::trace::live {

struct Condition {
  std::string Text; ///< as the user wrote it
  std::string Name;
  enum class Test { NonFinite, Less, LessEq, Greater, GreaterEq } Is{};
  bool Nan = false, Inf = false; ///< for NonFinite: which
  double Bound = 0;              ///< for the comparisons
  /// Whether a record of this name was seen (said at the end when not).
  bool Seen = false;

  /// A training rate's condition (`rate.train`, `rate.loading`,
  /// `rate.compute`): tested on each refresh's steps, not on records.
  enum class Rate { None, Train, Loading, Compute } Of = Rate::None;

  /// Whether `S`'s records are this condition's (never for a rate's).
  bool names(const SiteInfo &S) const;
  /// Whether `V` (a watched number) makes it hold.
  bool holds(double V) const;
};

/// Where a condition string is wrong: the column (0-based) and what was
/// expected there.
struct ConditionError {
  size_t Column = 0;
  std::string Message;
  /// `'TEXT': MESSAGE` then TEXT again with a caret under the column.
  std::string render(const std::string &Text) const;
};

/// Parses `Text`; false with `Error` when it is not a condition.
bool parseCondition(const std::string &Text, Condition &Out,
                    ConditionError &Error);

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_CONDITIONS_H
