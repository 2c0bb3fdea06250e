//===- TraincheckNames.h - C++ API names as Python names --------*- C++ -*-===//
//
// TrainCheck's invariants name Python APIs (`torch.optim.Optimizer.step`,
// `torch.nn.functional.nll_loss`); sonde records the C++ callee's
// qualified name (`torch::optim::Optimizer::step`, `at::nll_loss`). The
// traincheck export writes the Python name where libtorch's C++ API has
// one, so that invariants learned by TrainCheck on a Python program can be
// checked on the C++ one and the other way round. The table is
// docs/exports.md's ("C++ names and Python names").
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_EXPORTS_TRAINCHECKNAMES_H
#define SONDE_TRACE_EXPORTS_TRAINCHECKNAMES_H

#include <string>
#include <string_view>

namespace sonde::trace {

struct PythonName {
  std::string Name; ///< the Python name, or the C++ one when none maps
  bool Mapped = false;
  /// A method called on an object (TrainCheck's is_bound_method: the
  /// object is `self`).
  bool Bound = false;
};

/// The Python name of C++ callee `Cxx` (a site's name), by the table of
/// docs/exports.md: exact entries first, then the namespace rules.
PythonName pythonName(std::string_view Cxx);

/// Whether a Python name is an optimizer's step, which TrainCheck counts
/// in meta_vars' `step`.
bool isOptimizerStep(std::string_view Python);

} // namespace sonde::trace

#endif // SONDE_TRACE_EXPORTS_TRAINCHECKNAMES_H
