//===- TorchOps.cpp - Every ATen op as a region ---------------------------===//
//
// One global at::RecordFunction callback (libtorch 1.13's API: plain
// function pointers, state in thread-local storage) that records each
// operator call as a region of category `torch.op`, and each autograd
// backward node as `torch.op.backward`, named after it (`aten::addmm`,
// `AddmmBackward0`).
//
// Operator names are only known at run time, so each distinct name gets a
// Site made once and never freed (interned under a lock), one without and
// one with the `shapes` arg; per-thread direct-mapped caches, keyed by the
// name's address and by a hash of its characters, find it afterwards
// without a lock, an allocation or, for an operator, hashing its name. The
// region itself goes through the thread's shadow stack like any other, so ops
// nest under the program's own regions (compute.forward > aten::linear >
// aten::addmm).
//
//===----------------------------------------------------------------------===//

#define SONDE_TORCH_BUILDING 1
#include "sonde/torch.h"

#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace sonde::torch::detail {
namespace {

/// The inputs of an op, as the `shapes` arg: one item per input, a
/// tensor's sizes as an array, a number as itself, anything else null.
struct InputShapes {
  c10::ArrayRef<const c10::IValue> In;
};

} // namespace
} // namespace sonde::torch::detail

namespace sonde {
template <> struct ValueTraits<torch::detail::InputShapes> {
  static constexpr size_t MaxBytes = 1024;
  static void write(ValueWriter &W,
                    const torch::detail::InputShapes &V) noexcept {
    constexpr size_t MaxInputs = 16, MaxDims = 8;
    size_t N = V.In.size() < MaxInputs ? V.In.size() : MaxInputs;
    W.array(static_cast<uint32_t>(N));
    for (size_t I = 0; I < N; ++I) {
      const c10::IValue &X = V.In[I];
      if (X.isTensor()) {
        const at::Tensor &T = X.toTensor();
        if (!T.defined()) {
          W.null();
          continue;
        }
        at::IntArrayRef Sizes = T.sizes();
        size_t D = Sizes.size() < MaxDims ? Sizes.size() : MaxDims;
        W.array(static_cast<uint32_t>(D));
        for (size_t J = 0; J < D; ++J)
          W.integer(Sizes[J]);
      } else if (X.isInt()) {
        W.integer(X.toInt());
      } else if (X.isDouble()) {
        W.floating(X.toDouble());
      } else if (X.isBool()) {
        W.boolean(X.toBool());
      } else {
        W.null();
      }
    }
  }
};
} // namespace sonde

namespace sonde::torch::detail {
namespace {

constexpr const char *OpCategory = "torch.op";
constexpr const char *BackwardCategory = "torch.op.backward";

struct Tracing {
  std::mutex Lock;
  at::CallbackHandle Handle = 0; ///< under Lock; 0: not installed
  /// Every site made so far, by name, without and with the `shapes` arg
  /// (tracing may be turned off and on again the other way); names and
  /// sites are never freed.
  std::unordered_map<std::string_view, const Site *> Sites[2];
};

// Immortal: ops may run in static destructors.
Tracing &tracing() {
  static Tracing *T = new Tracing;
  return *T;
}

uint64_t hashName(const char *S) noexcept {
  uint64_t H = 0xcbf29ce484222325ull;
  for (; *S; ++S)
    H = (H ^ static_cast<unsigned char>(*S)) * 0x100000001b3ull;
  return H;
}

/// The site of an op name, made on first sight.
const Site *internSite(const char *Name, bool Backward, bool Shapes) noexcept {
  Tracing &Tr = tracing();
  std::lock_guard<std::mutex> G(Tr.Lock);
  auto &Sites = Tr.Sites[Shapes];
  auto It = Sites.find(Name);
  if (It != Sites.end())
    return It->second;
  // The autograd engine wraps each backward node in a FUNCTION-scope
  // record ("autograd::engine::evaluate_function: AddmmBackward0"): it is
  // backward work too.
  if (std::strncmp(Name, "autograd::", 10) == 0)
    Backward = true;
  try {
    size_t Len = std::strlen(Name);
    char *Copy = new char[Len + 1];
    std::memcpy(Copy, Name, Len + 1);
    const Site *S =
        new Site(SiteKind::Region, Backward ? BackwardCategory : OpCategory,
                 Copy, "<aten>", 0, "", 0, 0, Shapes ? "shapes" : "");
    Sites.emplace(std::string_view(Copy, Len), S);
    return S;
  } catch (...) {
    return nullptr;
  }
}

/// A thread's view: its caches of sites, and which of the ops open on this
/// thread opened a region (their end callbacks close it).
///
/// An operator's name is its schema's string, whose address does not
/// change: the first cache is keyed by the address, so a hit costs a
/// pointer compare and a short strcmp (an address may be reused for
/// another name: backward nodes' names are strings made per call). The
/// second is keyed by a hash of the name's characters, for names met at a
/// new address; only a name neither knows takes the lock.
struct ThreadOps {
  static constexpr uint32_t CacheSize = 1024;
  static constexpr uint32_t MaxDepth = 256;
  struct ByAddress {
    const char *Name;
    const Site *S;
  };
  struct ByHash {
    uint64_t Hash;
    const Site *S;
  };
  ByAddress Addressed[CacheSize];
  ByHash Hashed[CacheSize];
  uint32_t Depth;
  bool Opened[MaxDepth];
};
thread_local ThreadOps Ops; // zero-initialized: no constructor, no guard

/// Whether `S` is the site of `Name` in this mode (with the shapes arg or
/// without).
template <bool Shapes> bool isSiteOf(const Site *S, const char *Name) noexcept {
  return S && (S->Args[0] != '\0') == Shapes && std::strcmp(S->Name, Name) == 0;
}

/// A name's site in the current mode: the mode is in both keys, so a cache
/// filled before tracing was turned on the other way is never wrong.
template <bool Shapes>
const Site *siteFor(const char *Name, bool Backward) noexcept {
  auto Addr = reinterpret_cast<uintptr_t>(Name);
  ThreadOps::ByAddress &A =
      Ops.Addressed[((Addr >> 4) ^ (Addr >> 14) ^ Shapes) &
                    (ThreadOps::CacheSize - 1)];
  if (SONDE_LIKELY(A.Name == Name && isSiteOf<Shapes>(A.S, Name)))
    return A.S;
  uint64_t H = hashName(Name) ^ (Shapes ? 0x9e3779b97f4a7c15ull : 0);
  ThreadOps::ByHash &E = Ops.Hashed[H & (ThreadOps::CacheSize - 1)];
  const Site *S = E.Hash == H && isSiteOf<Shapes>(E.S, Name)
                      ? E.S
                      : internSite(Name, Backward, Shapes);
  if (S) {
    E = {H, S};
    A = {Name, S};
  }
  return S;
}

/// The start callback; with `Shapes`, the one installed with needsInputs.
template <bool Shapes>
std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  bool Opened = false;
  const char *Name = Fn.name();
  if (Name) {
    const Site *S =
        siteFor<Shapes>(Name, Fn.scope() == at::RecordScope::BACKWARD_FUNCTION);
    if (uint32_t Id = S ? rt::detail::activeId(*S) : 0) {
      rt::ThreadState *T = rt::detail::thread();
      uint64_t Tsc = now();
      if (Shapes)
        rt::detail::openWithArgs(T, Id, Tsc, InputShapes{Fn.inputs()});
      else
        rt::detail::open(T, Id, Tsc);
      Opened = true;
    }
  }
  uint32_t D = Ops.Depth++;
  if (D < ThreadOps::MaxDepth)
    Ops.Opened[D] = Opened;
  return nullptr;
}

void onEnd(const at::RecordFunction &, at::ObserverContext *) {
  if (Ops.Depth == 0)
    return; // began before the callback was installed
  uint32_t D = --Ops.Depth;
  if (D < ThreadOps::MaxDepth && Ops.Opened[D])
    rt::detail::close(rt::detail::thread(), now());
}

/// SONDE_TORCH_OPS=1 (or `shapes`) turns tracing on when the library loads.
struct FromEnvironment {
  FromEnvironment() {
    const char *V = std::getenv("SONDE_TORCH_OPS");
    if (!V || !*V || std::strcmp(V, "0") == 0)
      return;
    bool Shapes = std::strcmp(V, "shapes") == 0;
    if (Shapes || std::strcmp(V, "1") == 0)
      enableOps(Shapes);
    else
      std::fprintf(stderr,
                   "sonde: SONDE_TORCH_OPS=%.80s is not 0, 1 or 'shapes'; "
                   "using 0\n",
                   V);
  }
} AtLoad;

} // namespace

bool enableOps(bool Shapes) noexcept {
  Tracing &Tr = tracing();
  std::lock_guard<std::mutex> G(Tr.Lock);
  if (Tr.Handle)
    return true;
  try {
    Tr.Handle = at::addGlobalCallback(
        at::RecordFunctionCallback(Shapes ? onStart<true> : onStart<false>,
                                   onEnd)
            .needsInputs(Shapes)
            .scopes({at::RecordScope::FUNCTION,
                     at::RecordScope::BACKWARD_FUNCTION}));
  } catch (...) {
    return false;
  }
  return Tr.Handle != 0;
}

void disableOps() noexcept {
  Tracing &Tr = tracing();
  std::lock_guard<std::mutex> G(Tr.Lock);
  if (!Tr.Handle)
    return;
  at::removeCallback(Tr.Handle);
  Tr.Handle = 0;
}

} // namespace sonde::torch::detail
