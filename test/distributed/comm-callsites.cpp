// c10d calls written every way a user writes them, in free functions,
// methods and lambdas, through a ProcessGroup&, a pointer, and
// intrusive_ptrs to the base and to ProcessGroupGloo, and in a lambda
// (where a call is no site): check_callsites.py
// rewrites it with docs/distributed.md's c10d block (comm-spec.yaml) and
// checks that every call is a site of its category.
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

namespace app {

void sync(const c10::intrusive_ptr<c10d::ProcessGroupGloo> &pg, std::vector<at::Tensor> &tensors) {
  pg->allreduce(tensors)->wait();  // CHECK: comm.all_reduce sync
}

struct Trainer {
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  void start(std::vector<at::Tensor> &t) {
    auto work = pg->broadcast(t);  // CHECK: comm.bcast Trainer::start
    work->wait();
  }
  void gather(std::vector<std::vector<at::Tensor>> &out, std::vector<at::Tensor> &in) {
    pg->allgather(out, in)->wait();  // CHECK: comm.all_gather Trainer::gather
  }
};

void exchange(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t, int peer) {
  if (pg->getRank() == 0)
    pg->send(t, peer, 0)->wait();  // CHECK: comm.send exchange
  else
    pg->recv(t, peer, 0)->wait();  // CHECK: comm.receive exchange
}

void shuffle(c10d::ProcessGroup &pg, at::Tensor &out, at::Tensor &in) {
  std::vector<int64_t> splits;
  pg.alltoall_base(out, in, splits, splits)->wait();  // CHECK: comm.all_to_all shuffle
  // A lambda's body is not a host (probe-spec.md): no call site in it. The
  // wait() outside it is one; the backend's side records the operation.
  auto again = [&] { return pg.alltoall_base(out, in, splits, splits); };  // NONE
  again()->wait();
  pg.barrier()->wait();  // CHECK: comm.barrier shuffle
}

}  // namespace app
