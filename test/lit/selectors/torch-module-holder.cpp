// `TORCH_MODULE(Net)` declares `Net`, a holder of the class the user wrote,
// `NetImpl`; a selector on the holder's name (`Net::forward`, as the README
// writes it) reaches the module's methods. The pair is recognized by its
// shape, not its name alone: `XImpl` derives from torch::nn::Module
// (directly or through Cloneable) and `X`, declared beside it, is a
// torch::nn::ModuleHolder<XImpl>. (This case declares the few libtorch names
// it needs; selectors/torch-module.cpp compiles real libtorch.)
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 > %t.sites 2> %t.err
// RUN: FileCheck %s --input-file %t.sites --check-prefix=SITES
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC:   - at: "Conv::forward"
// SPEC:     category: user.conv
// SPEC:   - at: "models::Block::*"
// SPEC:     category: user.block
// SPEC:   - at: "Fake::forward"
// SPEC:     category: user.fake
// SPEC:   - at: "Lone::forward"
// SPEC:     category: user.lone
// SPEC:   - at: "train > Net::forward()"
// SPEC:     category: user.call

namespace torch {
namespace nn {
struct Module {
  virtual ~Module() = default;
};
template <class Derived> struct Cloneable : Module {};
template <class Contained> struct ModuleHolder {
  Contained Impl;
  Contained *operator->() { return &Impl; }
};
} // namespace nn
} // namespace torch
#define TORCH_MODULE_IMPL(Name, ImplType)                                      \
  class Name : public torch::nn::ModuleHolder<ImplType> {                      \
  public:                                                                      \
    using Impl = ImplType;                                                     \
  }
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

struct NetImpl : torch::nn::Module {
  int forward(int x) { return x + 1; }
  // CHECK: {{^}}  int forward(int x) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion {{.*}} return x + 1; }
};
TORCH_MODULE(Net);

struct ConvImpl : torch::nn::Cloneable<ConvImpl> {
  int forward(int x);
};
TORCH_MODULE(Conv);
int ConvImpl::forward(int x) { return 2 * x; }

namespace models {
struct BlockImpl : torch::nn::Module {
  int forward(int x) { return x; }
  int reset() { return 0; }
};
TORCH_MODULE(Block);
} // namespace models

// Named like a holder, but FakeImpl is no module.
struct FakeImpl {
  int forward(int x) { return x; }
};
class Fake : public torch::nn::ModuleHolder<FakeImpl> {};

// A module without a holder; `Lone` is something else.
struct LoneImpl : torch::nn::Module {
  int forward(int x) { return x; }
};
struct Lone {};

int train(Net &net) { return net->forward(1); }

// SITES-DAG: region compute.forward forward {{.*}}torch-module-holder.cpp:51 NetImpl::forward
// SITES-DAG: region user.conv conv {{.*}}torch-module-holder.cpp:60 ConvImpl::forward
// SITES-DAG: region user.block block {{.*}}torch-module-holder.cpp:64 models::BlockImpl::forward
// SITES-DAG: region user.block block {{.*}}torch-module-holder.cpp:65 models::BlockImpl::reset
// SITES-DAG: user.call {{.*}}torch-module-holder.cpp:82 train

// DIAG-DAG: {{.*}}.yaml:9:10: warning: selector 'Fake::forward' matches nothing
// DIAG-DAG: {{.*}}.yaml:11:10: warning: selector 'Lone::forward' matches nothing
// DIAG-NOT: matches nothing
