//===- sonde/torch.h - Tensors, model state and ATen ops --------*- C++ -*-===//
//
// Light on purpose: no libtorch header. It forward-declares at::Tensor and
// torch::nn::Module and calls out-of-line functions of libsonde_torch
// (CMake: sonde::torch), so a front door can `-include sonde/torch.h` in
// every translation unit at no real compile cost.
//
//   #include <sonde/torch.h>
//
//   SONDE_WATCH("batch", Data);             // {dtype, device, shape, numel}
//   static sonde::Site Stats(sonde::SiteKind::Watch, "user", "loss", __FILE__,
//                            __LINE__, __func__, 0,
//                            unsigned(sonde::Summary::Stats) << 3);
//   sonde::watch(Stats, Loss);              // + min, max, mean, std, ...
//   sonde::recordState(StateSite, Model);   // one record per parameter
//   sonde::torch::enableOpTracing();        // every ATen op as a region
//
// The functions are weak references: a program that uses this header but
// does not link libsonde_torch still links; its tensor watches record the
// string "<tensor: link sonde::torch>", recordState records nothing and
// enableOpTracing returns false, and libsonde says so once on stderr. A
// linker run with --as-needed drops a library that only weak references
// use: by hand, link it with `pkg-config --libs sonde-torch`, which keeps it.
//
// Note: `sonde::torch` is a namespace. Inside `namespace sonde` (or after
// `using namespace sonde;`) name libtorch as `::torch`.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TORCH_H
#define SONDE_TORCH_H

// Warnings from here are not the user's (see sonde.h).
#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "containers.h" // beside this header too
#include "sonde.h"      // beside this header: the plugin needs no -I

#include <type_traits>
#include <utility>

namespace at {
class Tensor;
} // namespace at
namespace torch {
namespace nn {
class Module;
} // namespace nn
} // namespace torch

#if defined(SONDE_TORCH_BUILDING)
#define SONDE_TORCH_API __attribute__((visibility("default")))
#else
#define SONDE_TORCH_API __attribute__((weak))
#endif

namespace sonde {
namespace rt {
namespace detail {
/// What a program asked of libsonde_torch while it is not linked.
enum class TorchMissing : unsigned { Tensor, State, Ops, Count };
/// Says so on stderr, once per kind, with how to link it (in libsonde).
void sayTorchMissing(TorchMissing What) noexcept;
} // namespace detail
} // namespace rt

namespace torch {
namespace detail {

/// The bound of a tensor's raw encoding: `full` with its 128 values and a
/// shape of up to 16 dimensions.
constexpr size_t TensorMaxBytes = 1536;
/// The bound of one parameter's state record.
constexpr size_t ParamMaxBytes = 2048;

/// Out of line in libsonde_torch (Torch.cpp). Null when it is not linked.
SONDE_TORCH_API void writeTensor(ValueWriter &W, const at::Tensor &T,
                                 Summary S) noexcept;
SONDE_TORCH_API void recordModule(const Site &S,
                                  const ::torch::nn::Module &M) noexcept;
SONDE_TORCH_API bool enableOps(bool Shapes) noexcept;
SONDE_TORCH_API void disableOps() noexcept;

/// Whether `M` is a pointer to a module (std::shared_ptr, a ModuleHolder
/// such as what TORCH_MODULE(Net) declares, a raw pointer).
template <class M, class = void> struct Dereferences : std::false_type {};
template <class M>
struct Dereferences<M, std::void_t<decltype(*std::declval<const M &>())>>
    : std::true_type {};

} // namespace detail

/// Records every ATen operator call (and autograd's backward nodes) as a
/// region of category `torch.op` (`torch.op.backward`), named after the
/// operator, with the input shapes as an arg when `Shapes`. One global
/// at::RecordFunction callback; idempotent (a second call with other
/// `Shapes` keeps the first). `SONDE_TORCH_OPS=1` (`=shapes`) in the
/// environment turns it on when libsonde_torch loads. Returns false only
/// when libsonde_torch is not linked.
inline bool enableOpTracing(bool Shapes = false) noexcept {
  if (&detail::enableOps)
    return detail::enableOps(Shapes);
  rt::detail::sayTorchMissing(rt::detail::TorchMissing::Ops);
  return false;
}

/// Removes the callback enableOpTracing installed, if any.
inline void disableOpTracing() noexcept {
  if (&detail::disableOps)
    detail::disableOps();
}

} // namespace torch

/// A tensor: `shape` (dtype, device, shape, numel) by default; `stats`,
/// `hash`, `full` and `value` by the site's summary. See
/// docs/trace-format.md for the members. Computed with autograd off and
/// without recording ATen ops of its own.
template <> struct ValueTraits<at::Tensor> {
  static constexpr size_t MaxBytes = torch::detail::TensorMaxBytes;
  SONDE_NODEBUG static void write(ValueWriter &W, const at::Tensor &T,
                                  Summary S = Summary::Default) noexcept {
    if (&torch::detail::writeTensor) {
      torch::detail::writeTensor(W, T, S);
    } else {
      static const char Msg[] = "<tensor: link sonde::torch>";
      W.string(Msg, sizeof Msg - 1);
      rt::detail::sayTorchMissing(rt::detail::TorchMissing::Tensor);
    }
  }
};

/// Records a model's parameters at a State site: one watch record per
/// parameter of `named_parameters()`, with its `stats` (or its `hash` when
/// the site's summary is `hash`) and its gradient's stats. `Model` is a
/// torch::nn::Module (or a class derived from it), a ModuleHolder (what
/// TORCH_MODULE gives), or a std::shared_ptr / pointer to a module. See
/// docs/trace-format.md, "State records".
template <class M>
SONDE_NODEBUG void recordState(const Site &S, const M &Model) noexcept {
  if constexpr (torch::detail::Dereferences<M>::value) {
    if (!static_cast<bool>(Model))
      return; // an empty holder or a null pointer: nothing to record
    recordState(S, *Model);
  } else {
    const ::torch::nn::Module &Base = Model;
    if (!rt::detail::activeId(S))
      return;
    if (&torch::detail::recordModule)
      torch::detail::recordModule(S, Base);
    else
      rt::detail::sayTorchMissing(rt::detail::TorchMissing::State);
  }
}

} // namespace sonde

#endif // SONDE_TORCH_H
