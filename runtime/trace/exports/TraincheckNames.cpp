//===- TraincheckNames.cpp - C++ API names as TrainCheck's Python names ---===//
//
// The table of docs/exports.md ("C++ names and Python names"): a few exact
// entries where libtorch's C++ name and the Python one part ways (the loss
// functions ATen names `at::nll_loss`, c10d's collectives, which Python
// calls as free functions of torch.distributed), then rules by namespace:
// `torch::optim::C::m` is `torch.optim.C.m` (a scheduler's is under
// `torch.optim.lr_scheduler`), `torch::nn::functional::f` is
// `torch.nn.functional.f`, `torch::nn::CImpl::m` is `torch.nn.C.m`,
// `at::Tensor::m` is `torch.Tensor.m`, and a free `at::f` or `torch::f` is
// `torch.f`. A name no entry or rule maps stays the C++ one.
//
//===----------------------------------------------------------------------===//

#include "TraincheckNames.h"

#include <vector>

namespace sonde::trace {
namespace {

struct Entry {
  const char *Cxx;
  const char *Python;
  bool Bound;
};

// Where the C++ name says something else than Python does.
const Entry Exact[] = {
    {"at::nll_loss", "torch.nn.functional.nll_loss", false},
    {"torch::nll_loss", "torch.nn.functional.nll_loss", false},
    {"at::cross_entropy_loss", "torch.nn.functional.cross_entropy", false},
    {"torch::cross_entropy_loss", "torch.nn.functional.cross_entropy", false},
    {"at::mse_loss", "torch.nn.functional.mse_loss", false},
    {"torch::mse_loss", "torch.nn.functional.mse_loss", false},
    {"at::binary_cross_entropy", "torch.nn.functional.binary_cross_entropy",
     false},
    {"torch::autograd::backward", "torch.autograd.backward", false},
    {"torch::autograd::grad", "torch.autograd.grad", false},
    {"torch::save", "torch.save", false},
    {"torch::load", "torch.load", false},
    {"torch::manual_seed", "torch.manual_seed", false},
    {"torch::optim::Optimizer::zero_grad", "torch.optim.Optimizer.zero_grad",
     true},
};

// c10d's collectives are methods of a process group in C++, free
// functions of torch.distributed in Python.
const Entry Collectives[] = {
    {"allreduce", "torch.distributed.all_reduce", false},
    {"broadcast", "torch.distributed.broadcast", false},
    {"barrier", "torch.distributed.barrier", false},
    {"allgather", "torch.distributed.all_gather", false},
    {"reduce", "torch.distributed.reduce", false},
    {"gather", "torch.distributed.gather", false},
    {"scatter", "torch.distributed.scatter", false},
    {"reduce_scatter", "torch.distributed.reduce_scatter", false},
    {"alltoall", "torch.distributed.all_to_all", false},
    {"send", "torch.distributed.send", false},
    {"recv", "torch.distributed.recv", false},
};

std::vector<std::string_view> split(std::string_view S) {
  std::vector<std::string_view> Parts;
  for (size_t At = 0;;) {
    size_t Next = S.find("::", At);
    Parts.push_back(S.substr(At, Next - At));
    if (Next == std::string_view::npos)
      return Parts;
    At = Next + 2;
  }
}

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

PythonName mapped(std::string Name, bool Bound) {
  return {std::move(Name), true, Bound};
}

} // namespace

PythonName pythonName(std::string_view Cxx) {
  for (const Entry &E : Exact)
    if (Cxx == E.Cxx)
      return mapped(E.Python, E.Bound);
  std::vector<std::string_view> P = split(Cxx);
  auto Join = [](std::string Prefix, std::string_view A) {
    return Prefix.append(A);
  };
  if (P.size() == 3 && P[0] == "c10d" && P[1].substr(0, 12) == "ProcessGroup")
    for (const Entry &E : Collectives)
      if (P[2] == E.Cxx)
        return mapped(E.Python, E.Bound);
  if (P.size() == 4 && P[0] == "torch" && P[1] == "optim") {
    // torch::optim::StepLR::step, LRScheduler::step: the schedulers.
    bool Scheduler = endsWith(P[2], "LR") || endsWith(P[2], "Scheduler");
    std::string Mod = Scheduler ? "torch.optim.lr_scheduler." : "torch.optim.";
    std::string Class(P[2]);
    if (Class == "ReduceLROnPlateauScheduler")
      Class = "ReduceLROnPlateau";
    return mapped(Mod + Class + "." + std::string(P[3]), true);
  }
  if (P.size() == 4 && P[0] == "torch" && P[1] == "nn" && P[2] == "functional")
    return mapped(Join("torch.nn.functional.", P[3]), false);
  if (P.size() == 4 && P[0] == "torch" && P[1] == "nn") {
    // torch::nn::LinearImpl::forward is torch.nn.Linear.forward.
    std::string_view Class = P[2];
    if (endsWith(Class, "Impl") && Class.size() > 4)
      Class.remove_suffix(4);
    return mapped("torch.nn." + std::string(Class) + "." + std::string(P[3]),
                  true);
  }
  if (P.size() == 3 && (P[0] == "at" || P[0] == "torch") && P[1] == "Tensor")
    return mapped(Join("torch.Tensor.", P[2]), true);
  if (P.size() == 2 && (P[0] == "at" || P[0] == "torch"))
    return mapped(Join("torch.", P[1]), false);
  return {std::string(Cxx), false, false};
}

bool isOptimizerStep(std::string_view Python) {
  return Python.substr(0, 12) == "torch.optim." &&
         Python.substr(0, 25) != "torch.optim.lr_scheduler." &&
         endsWith(Python, ".step");
}

} // namespace sonde::trace
