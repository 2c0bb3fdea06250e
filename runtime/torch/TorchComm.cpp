//===- TorchComm.cpp - c10d collectives as the backend runs them ----------===//
//
// libtorch 1.13's process groups report each collective they run through
// at::RecordFunction: Gloo opens a USER_SCOPE range named `gloo:all_reduce`,
// `gloo:broadcast`, `gloo:send`... on its worker thread around the
// operation's execution, with its input tensors (docs/distributed.md, "What
// libtorch reports"). None of it reaches SONDE_TORCH_OPS, which listens to
// operator scopes only. This callback turns each such range into a region
// of DFTracer's category for the operation (`comm.all_reduce`, `comm.bcast`,
// ... on the `<backend>:<op>` name), with the payload as args: `bytes`,
// `dtype`, `numel` (summed over the input tensors) and `tensors`.
//
// The region is on the backend's worker thread and covers the execution;
// the caller's side (the call that issues the operation, and Work::wait)
// is for call-site probes (distributed/probes.yaml). Installed when
// libsonde_torch loads, unless SONDE_TORCH_COMM=0: the callback costs
// nothing to the operators (a USER_SCOPE callback is not consulted for
// FUNCTION-scope records) and one record per collective.
//
//===----------------------------------------------------------------------===//

#define SONDE_TORCH_BUILDING 1
#include "TorchClock.h"
#include "sonde/torch.h"

#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace sonde::torch::detail {
namespace {

/// An element type as PyTorch's Python side and DFTracer write it.
const char *dtypeName(c10::ScalarType T) {
  switch (T) {
  case c10::ScalarType::Float:
    return "float32";
  case c10::ScalarType::Double:
    return "float64";
  case c10::ScalarType::Half:
    return "float16";
  case c10::ScalarType::BFloat16:
    return "bfloat16";
  case c10::ScalarType::Long:
    return "int64";
  case c10::ScalarType::Int:
    return "int32";
  case c10::ScalarType::Short:
    return "int16";
  case c10::ScalarType::Char:
    return "int8";
  case c10::ScalarType::Byte:
    return "uint8";
  case c10::ScalarType::Bool:
    return "bool";
  default:
    return c10::toString(T);
  }
}

/// What a collective carried: the sum over its input tensors.
struct Payload {
  int64_t Bytes = 0, Numel = 0, Tensors = 0;
  const char *Dtype = "";
};

Payload payloadOf(c10::ArrayRef<const c10::IValue> In) {
  Payload P;
  auto Add = [&P](const at::Tensor &T) {
    if (!T.defined())
      return;
    ++P.Tensors;
    P.Numel += T.numel();
    P.Bytes += T.numel() * static_cast<int64_t>(T.element_size());
    const char *D = dtypeName(T.scalar_type());
    // Mixed dtypes are said as such, not as the first one.
    P.Dtype = (!*P.Dtype || std::strcmp(P.Dtype, D) == 0) ? D : "mixed";
  };
  for (const c10::IValue &X : In) {
    if (X.isTensor())
      Add(X.toTensor());
    else if (X.isTensorList())
      for (const at::Tensor &T : X.toTensorVector())
        Add(T);
  }
  return P;
}

/// The backends whose ranges are collectives, and each operation's
/// DFTracer category (an operation not listed is `comm`).
constexpr const char *Backends[] = {"gloo:", "nccl:", "mpi:", "ucc:"};
struct Operation {
  const char *Op, *Category;
};
constexpr Operation Operations[] = {
    {"all_reduce", "comm.all_reduce"},
    {"sparse_all_reduce", "comm.all_reduce"},
    {"allreduce", "comm.all_reduce"},
    {"broadcast", "comm.bcast"},
    {"reduce", "comm.reduce"},
    {"all_gather", "comm.all_gather"},
    {"allgather", "comm.all_gather"},
    {"gather", "comm.gather"},
    {"scatter", "comm.scatter"},
    {"reduce_scatter", "comm.reduce_scatter"},
    {"all_to_all", "comm.all_to_all"},
    {"alltoall", "comm.all_to_all"},
    {"barrier", "comm.barrier"},
    {"send", "comm.send"},
    {"recv", "comm.receive"},
    {"recvAnySource", "comm.receive"},
};
constexpr size_t MaxSites = 64;

/// The site of a `<backend>:<op>` name, or null for any other range. A
/// fixed table, filled on first sight under its lock (a collective is not
/// frequent; its records are the cost).
const Site *siteOf(const char *Name) noexcept {
  const char *Op = nullptr;
  for (const char *B : Backends)
    if (std::strncmp(Name, B, std::strlen(B)) == 0)
      Op = Name + std::strlen(B);
  if (!Op)
    return nullptr;
  static std::mutex Lock;
  static const Site *Sites[MaxSites];
  static size_t Count = 0;
  std::lock_guard<std::mutex> G(Lock);
  for (size_t I = 0; I < Count; ++I)
    if (std::strcmp(Sites[I]->Name, Name) == 0)
      return Sites[I];
  if (Count == MaxSites)
    return nullptr;
  const char *Category = "comm";
  for (const Operation &O : Operations)
    if (std::strcmp(O.Op, Op) == 0)
      Category = O.Category;
  // Never freed: a collective may finish during the static destructors.
  char *Copy = strdup(Name);
  if (!Copy)
    return nullptr;
  Sites[Count] =
      new (std::nothrow) Site(SiteKind::Region, Category, Copy, "<c10d>", 0, "",
                              0, 0, "bytes,dtype,numel,tensors");
  return Sites[Count] ? Sites[Count++] : nullptr;
}

/// Which of the ranges open on this thread opened a region, and the site
/// of the last collective it ran: a Gloo worker runs the same few
/// operations over and over, so the table's lock and search are paid once
/// per change of operation, not per collective.
struct ThreadComm {
  static constexpr uint32_t MaxDepth = 64;
  uint32_t Depth;
  bool Opened[MaxDepth];
  const Site *Last;
};
thread_local ThreadComm Comm; // zero-initialized: no constructor, no guard

/// siteOf through this thread's last site. The name is compared, not its
/// address: a range named by a std::string may reuse another's storage.
const Site *cachedSiteOf(const char *Name) noexcept {
  if (Comm.Last && std::strcmp(Comm.Last->Name, Name) == 0)
    return Comm.Last;
  const Site *S = siteOf(Name);
  if (S)
    Comm.Last = S;
  return S;
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  bool Opened = false;
  const Site *S = Fn.name() ? cachedSiteOf(Fn.name()) : nullptr;
  if (S)
    startClockExchange(); // at the first collective: the store is up
  if (uint32_t Id = S ? rt::detail::activeId(*S) : 0) {
    rt::ThreadState *T = rt::detail::thread();
    uint64_t Tsc = now();
    Payload P = payloadOf(Fn.inputs());
    rt::detail::openWithArgs(T, Id, Tsc, P.Bytes, P.Dtype, P.Numel, P.Tensors);
    Opened = true;
  }
  uint32_t D = Comm.Depth++;
  if (D < ThreadComm::MaxDepth)
    Comm.Opened[D] = Opened;
  return nullptr;
}

void onEnd(const at::RecordFunction &, at::ObserverContext *) {
  if (Comm.Depth == 0)
    return; // began before the callback was installed
  uint32_t D = --Comm.Depth;
  if (D < ThreadComm::MaxDepth && Comm.Opened[D])
    rt::detail::close(rt::detail::thread(), now());
}

/// Installs the callback as the library loads, unless SONDE_TORCH_COMM=0.
struct AtLoad {
  AtLoad() {
    const char *V = std::getenv("SONDE_TORCH_COMM");
    if (V && std::strcmp(V, "0") == 0)
      return;
    if (V && std::strcmp(V, "1") != 0)
      std::fprintf(stderr,
                   "sonde: SONDE_TORCH_COMM=%.80s is not 0 or 1; using 1\n", V);
    at::addGlobalCallback(at::RecordFunctionCallback(onStart, onEnd)
                              .needsInputs(true)
                              .scopes({at::RecordScope::USER_SCOPE}));
  }
} Installed;

} // namespace
} // namespace sonde::torch::detail
