//===- TorchValues.cpp - Tensor summaries and model state -----------------===//
//
// The out-of-line half of sonde/torch.h: what a tensor watch records for
// each summary, and recordState's per-parameter records. Everything that
// can throw (a device copy, a dtype conversion) runs before the first byte
// is written, so a failure records a string instead of a broken value.
//
// Tensors on the CPU, contiguous and of a plain dtype are read in place:
// no ATen op runs, so nothing is recorded by op tracing and autograd is not
// involved. Other tensors are first copied to a contiguous CPU tensor under
// at::NoGradGuard and at::DisableRecordFunctionGuard.
//
//===----------------------------------------------------------------------===//

#define SONDE_TORCH_BUILDING 1
#include "sonde/torch.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>
#include <ATen/record_function.h>
#include <torch/nn/module.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace sonde::torch::detail {
namespace {

using stats::Accumulator;

constexpr uint32_t MaxDims = 16;

const char *dtypeName(at::ScalarType T) {
  switch (T) {
  case at::kByte:
    return "uint8";
  case at::kChar:
    return "int8";
  case at::kShort:
    return "int16";
  case at::kInt:
    return "int32";
  case at::kLong:
    return "int64";
  case at::kHalf:
    return "float16";
  case at::kFloat:
    return "float32";
  case at::kDouble:
    return "float64";
  case at::kComplexHalf:
    return "complex32";
  case at::kComplexFloat:
    return "complex64";
  case at::kComplexDouble:
    return "complex128";
  case at::kBool:
    return "bool";
  case at::kBFloat16:
    return "bfloat16";
  default:
    return c10::toString(T);
  }
}

const char *deviceTypeName(c10::DeviceType T) {
  switch (T) {
  case c10::DeviceType::CPU:
    return "cpu";
  case c10::DeviceType::CUDA:
    return "cuda";
  case c10::DeviceType::HIP:
    return "hip";
  case c10::DeviceType::MPS:
    return "mps";
  case c10::DeviceType::XLA:
    return "xla";
  case c10::DeviceType::XPU:
    return "xpu";
  case c10::DeviceType::Meta:
    return "meta";
  default:
    return "other";
  }
}

/// Calls `Fn(const E *Data, size_t N)` with the elements of a contiguous CPU
/// tensor in their own type; false for dtypes without a plain element type
/// (complex, quantized).
template <class F> bool withElements(const at::Tensor &T, F &&Fn) {
  const void *P = T.data_ptr();
  size_t N = static_cast<size_t>(T.numel());
  switch (T.scalar_type()) {
#define SONDE_CASE(Tag, Type)                                                  \
  case at::Tag:                                                                \
    Fn(static_cast<const Type *>(P), N);                                       \
    return true;
    SONDE_CASE(kFloat, float)
    SONDE_CASE(kDouble, double)
    SONDE_CASE(kHalf, c10::Half)
    SONDE_CASE(kBFloat16, c10::BFloat16)
    SONDE_CASE(kByte, uint8_t)
    SONDE_CASE(kChar, int8_t)
    SONDE_CASE(kShort, int16_t)
    SONDE_CASE(kInt, int32_t)
    SONDE_CASE(kLong, int64_t)
    SONDE_CASE(kBool, bool)
#undef SONDE_CASE
  default:
    return false;
  }
}

/// One element of `full`, as what it is.
struct Element {
  enum Kind : uint8_t { Float, Int, Bool } K;
  union {
    double F;
    int64_t I;
    bool B;
  };
};

template <class E> Element element(E V) {
  Element X;
  if constexpr (std::is_same<E, bool>::value) {
    X.K = Element::Bool;
    X.B = V;
  } else if constexpr (std::is_integral<E>::value) {
    X.K = Element::Int;
    X.I = static_cast<int64_t>(V);
  } else {
    X.K = Element::Float;
    X.F = static_cast<double>(static_cast<float>(V));
  }
  return X;
}
template <> Element element(double V) {
  Element X;
  X.K = Element::Float;
  X.F = V;
  return X;
}

/// Everything a tensor's record holds, computed before writing.
struct Summary_ {
  Summary S = Summary::Shape;
  bool Defined = false;
  const char *DType = "";
  char Device[24] = {};
  uint32_t Dims = 0;
  int64_t Sizes[MaxDims] = {};
  int64_t Numel = 0;
  bool RequiresGrad = false;
  bool Content = false; ///< the elements could be read
  Accumulator A;
  uint64_t Hash = 0;
  uint32_t NValues = 0;
  Element Values[stats::FullCap];
  const char *Error = nullptr;
};

void readContent(const at::Tensor &C, Summary_ &D) {
  switch (D.S) {
  case Summary::Stats:
    D.Content = withElements(
        C, [&](const auto *P, size_t N) { stats::addAll(D.A, P, N); });
    break;
  case Summary::Hash: {
    uint64_t Seed = static_cast<uint64_t>(C.scalar_type()) + 1;
    for (uint32_t I = 0; I < D.Dims; ++I)
      Seed = Seed * 0x100000001B3ull + static_cast<uint64_t>(D.Sizes[I]);
    D.Content = withElements(C, [&](const auto *P, size_t N) {
      D.Hash = stats::hashBytes(P, N * sizeof *P, Seed);
    });
    break;
  }
  case Summary::Full:
  case Summary::Value:
    D.Content = withElements(C, [&](const auto *P, size_t N) {
      uint32_t K =
          N < stats::FullCap ? static_cast<uint32_t>(N) : stats::FullCap;
      if (D.S == Summary::Value && N != 1)
        K = 0;
      for (uint32_t I = 0; I < K; ++I)
        D.Values[I] = element(P[I]);
      D.NValues = K;
    });
    break;
  default:
    break;
  }
}

/// Fills `D` for tensor `T` with summary `S`. May throw (copies).
void describe(const at::Tensor &T, Summary S, Summary_ &D) {
  D.S = S == Summary::Default ? Summary::Shape : S;
  D.Defined = T.defined();
  if (!D.Defined)
    return;
  D.DType = dtypeName(T.scalar_type());
  c10::Device Dev = T.device();
  if (Dev.has_index())
    std::snprintf(D.Device, sizeof D.Device, "%s:%d",
                  deviceTypeName(Dev.type()), static_cast<int>(Dev.index()));
  else
    std::snprintf(D.Device, sizeof D.Device, "%s", deviceTypeName(Dev.type()));
  at::IntArrayRef Sizes = T.sizes();
  D.Dims =
      Sizes.size() < MaxDims ? static_cast<uint32_t>(Sizes.size()) : MaxDims;
  for (uint32_t I = 0; I < D.Dims; ++I)
    D.Sizes[I] = Sizes[I];
  D.Numel = T.numel();
  D.RequiresGrad = T.requires_grad();
  if (D.S == Summary::Shape || T.layout() != at::kStrided)
    return;
  if (T.is_cpu() && T.is_contiguous() && !T.is_conj() && !T.is_neg()) {
    readContent(T, D);
    return;
  }
  // A view, a conjugate, another device: one contiguous CPU copy, made
  // without autograd and without showing up in op tracing.
  at::NoGradGuard NoGrad;
  at::DisableRecordFunctionGuard NoOps;
  at::Tensor C =
      T.detach().to(at::kCPU).resolve_conj().resolve_neg().contiguous();
  readContent(C, D);
}

/// The number of members `write` gives an object of this summary.
uint16_t memberCount(const Summary_ &D, uint16_t Extra) {
  uint16_t N = 4 + Extra;
  switch (D.S) {
  case Summary::Stats:
    return N + 7;
  case Summary::Hash:
  case Summary::Full:
    return N + 1;
  case Summary::Value:
    return N + (D.Numel == 1 ? 1 : 0);
  default:
    return N;
  }
}

void writeElement(ValueWriter &W, const Element &E) {
  switch (E.K) {
  case Element::Float:
    W.floating(E.F);
    break;
  case Element::Int:
    W.integer(E.I);
    break;
  case Element::Bool:
    W.boolean(E.B);
    break;
  }
}

/// The members after the object header: dtype ... numel, then the summary's.
void writeMembers(ValueWriter &W, const Summary_ &D) {
  W.key("dtype");
  W.string(D.DType, std::strlen(D.DType));
  W.key("device");
  W.string(D.Device, std::strlen(D.Device));
  W.key("shape");
  W.array(D.Dims);
  for (uint32_t I = 0; I < D.Dims; ++I)
    W.integer(D.Sizes[I]);
  W.key("numel");
  W.integer(D.Numel);
  switch (D.S) {
  case Summary::Stats:
    stats::writeMembers(W, D.A); // nulls when the content is unreadable
    break;
  case Summary::Hash:
    if (D.Content) {
      stats::writeHash(W, D.Hash);
    } else {
      W.key("hash");
      W.null();
    }
    break;
  case Summary::Full:
    W.key("values");
    W.array(D.NValues);
    for (uint32_t I = 0; I < D.NValues; ++I)
      writeElement(W, D.Values[I]);
    break;
  case Summary::Value:
    if (D.Numel == 1) {
      W.key("value");
      if (D.NValues == 1)
        writeElement(W, D.Values[0]);
      else
        W.null();
    }
    break;
  default:
    break;
  }
}

void writeError(ValueWriter &W, const char *What) {
  char Msg[128];
  int N = std::snprintf(Msg, sizeof Msg, "<tensor: %s>", What);
  W.string(Msg, N < 0 ? 0 : std::min<size_t>(N, sizeof Msg - 1));
}

/// One parameter of a model: what a State site records per parameter.
struct Param {
  const std::string &Name;
  const at::Tensor &Value;
};

} // namespace

void writeTensor(ValueWriter &W, const at::Tensor &T, Summary S) noexcept {
  Summary_ D;
  try {
    describe(T, S, D);
  } catch (const std::exception &E) {
    return writeError(W, E.what());
  } catch (...) {
    return writeError(W, "error");
  }
  if (!D.Defined)
    return W.null();
  W.object(memberCount(D, 0));
  writeMembers(W, D);
}

} // namespace sonde::torch::detail

namespace sonde {
template <> struct ValueTraits<torch::detail::Param> {
  static constexpr size_t MaxBytes = torch::detail::ParamMaxBytes;
  static void write(ValueWriter &W, const torch::detail::Param &P,
                    Summary S) noexcept {
    using namespace torch::detail;
    // State records hold stats unless the site asks for another summary;
    // the gradient always gets stats.
    if (S == Summary::Default || S == Summary::Value)
      S = Summary::Stats;
    Summary_ D, G;
    try {
      describe(P.Value, S, D);
      describe(P.Value.grad(), Summary::Stats, G);
    } catch (const std::exception &E) {
      return writeError(W, E.what());
    } catch (...) {
      return writeError(W, "error");
    }
    W.object(memberCount(D, 3));
    W.key("param");
    W.string(P.Name.data(), P.Name.size());
    writeMembers(W, D);
    W.key("requires_grad");
    W.boolean(D.RequiresGrad);
    W.key("grad");
    if (!G.Defined) {
      W.null();
    } else {
      W.object(memberCount(G, 0));
      writeMembers(W, G);
    }
  }
};
} // namespace sonde

namespace sonde::torch::detail {

void recordModule(const Site &S, const ::torch::nn::Module &M) noexcept {
  try {
    at::NoGradGuard NoGrad;
    at::DisableRecordFunctionGuard NoOps;
    for (const auto &Item : M.named_parameters(/*recurse=*/true))
      sonde::watch(S, Param{Item.key(), Item.value()});
  } catch (...) {
    // named_parameters() allocates; a failure records nothing more.
  }
}

} // namespace sonde::torch::detail
