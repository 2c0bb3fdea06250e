// A selector that matches nothing is told the nearest name that exists
// (cli/unmatched-target.cpp); a TORCH_MODULE holder's name exists, since it
// selects the module's methods (selectors/torch-module-holder.cpp): a
// working `Net::forward` is never the part "corrected" to `NetImpl::forward`,
// and a typo of it is told the holder's name.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 2>&1 >/dev/null \
// RUN:   | FileCheck %s --implicit-check-not="did you mean"
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "Net::forward > nosuchcall()"
// SPEC:     category: user.call
// SPEC:   - at: "Net::forwrd"
// SPEC:     category: user.typo
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward

namespace torch {
namespace nn {
struct Module {
  virtual ~Module() = default;
};
template <class Contained> struct ModuleHolder {
  Contained Impl;
};
} // namespace nn
} // namespace torch

struct NetImpl : torch::nn::Module {
  int forward(int x) { return x + 1; }
};
class Net : public torch::nn::ModuleHolder<NetImpl> {};

// CHECK: warning: selector 'Net::forward > nosuchcall()' matches nothing{{$}}
// CHECK: warning: selector 'Net::forwrd' matches nothing; did you mean 'Net::forward'?
