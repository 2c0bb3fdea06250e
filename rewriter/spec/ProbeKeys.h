//===- ProbeKeys.h - The keys of a probe entry ------------------*- C++ -*-===//
//
// An entry of `probes:`, `watches:`, `state:` or `apis:` is a map of keys.
// Which keys a section accepts, how each value is read and what it sets is
// one table (ProbeKeys.cpp); readProbeKeys walks an entry through it and
// the unknown-key suggestions come from it. What needs every key at once
// (the selector, the section rules) is the section loader's
// (ProbeLoader.cpp, ApiLoader.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_PROBEKEYS_H
#define SONDE_REWRITER_SPEC_PROBEKEYS_H

#include "SpecChecks.h"
#include "sonde/rewriter/Spec.h"

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace sonde {
namespace rewriter {

/// An entry being read: the Probe it becomes, and what its keys said that
/// the section loader checks once every key is read.
struct ProbeDraft {
  Probe P;
  YAML::Node AtNode;       ///< `at:`'s value
  bool AtGiven = false;    ///< `at:` is written, maybe with no value
  bool HasAt = false;      ///< `at:` holds a selector string
  bool AtMisspelt = false; ///< an unknown key was taken for `at`
  std::optional<YAML::Node> SummaryNode; ///< a valid `summary:`
  std::optional<YAML::Node> ModeNode;    ///< `mode:`, a string
  std::optional<YAML::Node> ItemsNode;   ///< `items:`
  std::optional<YAML::Node> CheckNode;   ///< `check:`, a string
  std::vector<SpecLoc> ArgKeyLocs;       ///< of each of P.Args' keys
  /// `apis:`: the callee glob and the calling function selector.
  std::string Call, Within;
  SpecLoc CallLoc, WithinLoc;
  bool HasCall = false, HasWithin = false;
};

/// Reads every key of entry `N` (a map) of section `Sec` into `D`, each
/// checked (a key given twice too), every problem reported. False when a value
/// leaves the entry meaningless (a selector that runs into the next lines, a
/// `call:` that is not a string): the loader drops the entry without further
/// messages.
bool readProbeKeys(SpecChecks &C, const YAML::Node &N, Section Sec,
                   ProbeDraft &D);

} // namespace rewriter
} // namespace sonde

#endif // SONDE_REWRITER_SPEC_PROBEKEYS_H
