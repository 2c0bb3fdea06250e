//===- SpecLoaders.h - The loaders of the spec's sections -------*- C++ -*-===//
//
// SpecLoader.cpp reads the top of the spec (the text, the YAML document,
// `version:` and `torch_ops:`) and hands each other section to its loader
// here. Each loader checks what it reads through SpecChecks, reports every
// problem, and adds what is sound to the spec.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SPEC_SPECLOADERS_H
#define SONDE_REWRITER_SPEC_SPECLOADERS_H

#include "SpecChecks.h"
#include "sonde/rewriter/Spec.h"

#include <yaml-cpp/yaml.h>

namespace sonde {
namespace rewriter {

/// `scope:` (ScopeLoader.cpp): the include and exclude rules.
void loadScope(SpecChecks &C, const YAML::Node &V);

/// One entry of `probes:`, `watches:` or `state:` (ProbeLoader.cpp).
void loadProbe(SpecChecks &C, const YAML::Node &N, Section Sec);

/// One entry of `apis:` (ApiLoader.cpp), held as the call-site query
/// `WITHIN > CALL()`.
void loadApi(SpecChecks &C, const YAML::Node &N);

} // namespace rewriter
} // namespace sonde

#endif // SONDE_REWRITER_SPEC_SPECLOADERS_H
