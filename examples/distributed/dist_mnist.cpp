// dist_mnist: data-parallel libtorch training on c10d's Gloo process group,
// after pytorch/examples' cpp/distributed/dist-mnist.cpp (which uses MPI).
//
//   dist_mnist [DATA_DIR] [--epochs N] [--batch-size N] [--train-samples N]
//              [--lr X] [--momentum X] [--bucket-kb N] [--checkpoint PATH]
//              [--timeout S] [--seed N] [--slow-rank R --slow-ms MS]
//
// Every rank runs this program. Its rank and the world size come from the
// launcher: RANK/WORLD_SIZE (torchrun, scripts/sonde-launch), or
// OMPI_COMM_WORLD_RANK/_SIZE (mpirun), PMI_RANK/PMI_SIZE, SLURM_PROCID/
// SLURM_NTASKS. Rank 0 hosts a c10d::TCPStore at MASTER_ADDR:MASTER_PORT
// (default address 127.0.0.1; the port must be given: tests run side by
// side), the other ranks connect to it, and a ProcessGroupGloo on the
// loopback device carries the traffic.
//
// Each rank trains on its shard of the MNIST idx files in DATA_DIR (the
// synthetic set of examples/mnist/make_data, the model of examples/mnist):
// forward, backward, one all-reduce per gradient bucket (--bucket-kb groups
// the gradients, in parameter order, into flat buckets of at most that
// size; 0: one bucket), the optimizer step. Rank 0 broadcasts the initial
// parameters, and saves the model once at the end. --slow-rank R makes rank
// R a straggler: its data loader sleeps --slow-ms MS (default 1000) for each
// batch (the tests check that sonde summary names it; off by default).
//
// This file knows nothing of sonde: probes.yaml says where sonde looks.

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

struct Options {
  std::string data_dir = "data";
  size_t epochs = 1;
  size_t batch_size = 64;
  size_t train_samples = 2000;
  double lr = 0.05;
  double momentum = 0.5;
  size_t bucket_kb = 0;
  std::string checkpoint = "dist-mnist-model.pt";
  size_t timeout_s = 300;
  uint64_t seed = 1;
  long slow_rank = -1;  // the straggler, or -1 for none
  size_t slow_ms = 1000;
};

// The network of examples/mnist (pytorch/examples' MNIST).
struct Net : torch::nn::Module {
  Net()
      : conv1(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5)),
        conv2(torch::nn::Conv2dOptions(10, 20, /*kernel_size=*/5)),
        fc1(320, 50),
        fc2(50, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv2_drop", conv2_drop);
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
    x = torch::relu(torch::max_pool2d(conv2_drop->forward(conv2->forward(x)), 2));
    x = x.view({-1, 320});
    x = torch::relu(fc1->forward(x));
    x = torch::dropout(x, /*p=*/0.5, /*train=*/is_training());
    x = fc2->forward(x);
    return torch::log_softmax(x, /*dim=*/1);
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Dropout2d conv2_drop;
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};

// The batch as it came, late by `ms` milliseconds on the straggler (a slow
// disk or decoder, as one rank of a real job may have).
using Examples = std::vector<torch::data::Example<>>;
struct Delay : torch::data::transforms::BatchTransform<Examples, Examples> {
  explicit Delay(size_t ms) : ms(ms) {}
  Examples apply_batch(Examples batch) override {
    if (ms) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return batch;
  }
  size_t ms;
};

using MnistDataset = torch::data::datasets::MapDataset<
    torch::data::datasets::MapDataset<
        torch::data::datasets::MapDataset<torch::data::datasets::MNIST, torch::data::transforms::Normalize<>>, Delay>,
    torch::data::transforms::Stack<>>;
using DataLoader =
    torch::data::StatelessDataLoader<MnistDataset, torch::data::samplers::DistributedSequentialSampler>;

// Where this process stands in the job, as its launcher said.
struct World {
  int rank = 0;
  int size = 1;
};

// The first of the launchers' variables that is set, as a whole number.
int from_environment(const char* const* names, int fallback) {
  for (const char* const* name = names; *name; ++name) {
    const char* text = std::getenv(*name);
    if (!text) continue;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 1000000) {
      std::fprintf(stderr, "dist_mnist: %s='%s' is not a whole number\n", *name, text);
      std::exit(2);
    }
    return static_cast<int>(value);
  }
  return fallback;
}

World world_from_environment() {
  static const char* const rank_names[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", nullptr};
  static const char* const size_names[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                           nullptr};
  World world;
  world.rank = from_environment(rank_names, 0);
  world.size = from_environment(size_names, 1);
  if (world.size < 1 || world.rank >= world.size) {
    std::fprintf(stderr, "dist_mnist: rank %d is not in a world of %d\n", world.rank, world.size);
    std::exit(2);
  }
  return world;
}

// Rank 0 serves the store, every rank (rank 0 too) is its client; then the
// Gloo group over the loopback interface.
c10::intrusive_ptr<c10d::ProcessGroupGloo> make_process_group(const World& world, const Options& options) {
  const char* addr = std::getenv("MASTER_ADDR");
  const char* port = std::getenv("MASTER_PORT");
  if (!port) {
    std::fprintf(stderr,
                 "dist_mnist: MASTER_PORT is not set (rank 0 serves the store there; "
                 "scripts/sonde-launch picks a free one)\n");
    std::exit(2);
  }
  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<uint16_t>(std::atoi(port));
  store_options.isServer = world.rank == 0;
  store_options.numWorkers = static_cast<size_t>(world.size);
  store_options.waitWorkers = true;
  store_options.timeout = std::chrono::seconds(options.timeout_s);
  auto store = c10::make_intrusive<c10d::TCPStore>(addr ? addr : "127.0.0.1", store_options);

  auto gloo_options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(options.timeout_s));
  gloo_options->devices.push_back(::c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, world.rank, world.size, gloo_options);
}

// This rank's shard of the first `samples` training images.
std::unique_ptr<DataLoader> make_loader(const Options& options, const World& world, size_t& samples,
                                        size_t& shard) {
  auto dataset = torch::data::datasets::MNIST(options.data_dir, torch::data::datasets::MNIST::Mode::kTrain)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(Delay(options.slow_rank == world.rank ? options.slow_ms : 0))
                     .map(torch::data::transforms::Stack<>());
  const size_t available = dataset.size().value();
  if (samples == 0 || samples > available) samples = available;
  torch::data::samplers::DistributedSequentialSampler sampler(samples, static_cast<size_t>(world.size),
                                                              static_cast<size_t>(world.rank));
  // The sampler's own count (protected there): with duplicates allowed,
  // every rank gets ceil(samples / size) images, the last ones wrapping.
  shard = (samples + static_cast<size_t>(world.size) - 1) / static_cast<size_t>(world.size);
  return torch::data::make_data_loader(std::move(dataset), std::move(sampler),
                                       torch::data::DataLoaderOptions().batch_size(options.batch_size));
}

// The gradients, grouped in parameter order into buckets of at most
// `bucket_bytes` (0: no limit); every parameter in one bucket exactly once.
std::vector<std::vector<torch::Tensor>> make_buckets(const std::vector<torch::Tensor>& params, size_t bucket_bytes) {
  std::vector<std::vector<torch::Tensor>> buckets;
  size_t bytes = 0;
  for (const auto& param : params) {
    const size_t size = static_cast<size_t>(param.numel()) * param.element_size();
    if (buckets.empty() || (bucket_bytes != 0 && bytes + size > bucket_bytes && !buckets.back().empty())) {
      buckets.emplace_back();
      bytes = 0;
    }
    buckets.back().push_back(param);
    bytes += size;
  }
  return buckets;
}

// The tensors' data, flattened into one.
torch::Tensor flatten(const std::vector<torch::Tensor>& tensors) {
  std::vector<torch::Tensor> views;
  views.reserve(tensors.size());
  for (const auto& t : tensors) views.push_back(t.detach().reshape({-1}));
  return torch::cat(views);
}

// Copies `flat` back into `tensors` (the inverse of flatten).
void unflatten(const torch::Tensor& flat, const std::vector<torch::Tensor>& tensors) {
  int64_t offset = 0;
  for (const auto& t : tensors) {
    t.detach().copy_(flat.narrow(0, offset, t.numel()).view_as(t));
    offset += t.numel();
  }
}

// Every rank starts from rank 0's parameters: one flat broadcast.
void broadcast_parameters(c10d::ProcessGroup& pg, const std::vector<torch::Tensor>& params) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> flat{flatten(params)};
  // Each collective is a statement of its own, its wait the next one: the
  // spec records each call with its group's size (probes.yaml), which sonde
  // can evaluate only around a call that is a statement by itself.
  auto work = pg.broadcast(flat);
  work->wait();
  unflatten(flat.front(), params);
}

// The mean of every rank's gradients: one all-reduce (a sum) per bucket,
// then a division by the world size.
void allreduce_gradients(c10d::ProcessGroup& pg, const std::vector<std::vector<torch::Tensor>>& buckets) {
  torch::NoGradGuard no_grad;
  for (const auto& bucket : buckets) {
    std::vector<torch::Tensor> grads;
    grads.reserve(bucket.size());
    for (const auto& param : bucket) grads.push_back(param.grad());
    std::vector<torch::Tensor> flat{flatten(grads)};
    auto work = pg.allreduce(flat);
    work->wait();
#ifdef DIST_SEEDED_BUGS
    // Seeded silent bug (f) of docs/invariants.md, in the dist_mnist-bugs
    // build only: with DIST_MNIST_BUG=skip-allreduce the last rank skips
    // the all-reduce's result and steps on its own gradients (it still
    // takes part in the collective: the others would wait for it forever).
    static const bool skip_allreduce = std::getenv("DIST_MNIST_BUG") &&
                                       std::string(std::getenv("DIST_MNIST_BUG")) == "skip-allreduce";
    if (skip_allreduce && pg.getRank() == pg.getSize() - 1) continue;
#endif
    flat.front().div_(pg.getSize());
    unflatten(flat.front(), grads);
  }
}

// One pass over this rank's shard; returns the sum of its batches' losses.
double train_epoch(size_t epoch, Net& model, DataLoader& loader, torch::optim::Optimizer& optimizer,
                   c10d::ProcessGroup& pg, const std::vector<std::vector<torch::Tensor>>& buckets) {
  model.train();
  size_t batch_idx = 0;
  double loss_sum = 0;
  for (auto& batch : loader) {
    optimizer.zero_grad();
    auto output = model.forward(batch.data);
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    allreduce_gradients(pg, buckets);
    optimizer.step();

    const double loss_value = loss.item<double>();
    AT_ASSERT(!std::isnan(loss_value));
    loss_sum += loss_value;
    ++batch_idx;
  }
  std::printf("rank %d epoch %zu: %zu batches, mean loss %.4f\n", pg.getRank(), epoch, batch_idx,
              batch_idx ? loss_sum / static_cast<double>(batch_idx) : 0.0);
  return loss_sum;
}

// The training run: every rank trains every epoch; the ranks' losses are
// summed once an epoch; rank 0 saves the model at the end, and every rank
// waits at a barrier so that none leaves while another still needs it.
void train(const std::shared_ptr<Net>& model, DataLoader& loader, torch::optim::Optimizer& optimizer,
           c10d::ProcessGroup& pg, const Options& options) {
  const auto params = model->parameters();
  broadcast_parameters(pg, params);
  const auto buckets = make_buckets(params, options.bucket_kb * 1024);
  for (size_t epoch = 1; epoch <= options.epochs; ++epoch) {
    const double loss_sum = train_epoch(epoch, *model, loader, optimizer, pg, buckets);
    std::vector<torch::Tensor> total{torch::tensor({loss_sum}, torch::kFloat64)};
    auto work = pg.allreduce(total);
    work->wait();
    if (pg.getRank() == 0) std::printf("epoch %zu: loss sum over %d ranks %.4f\n", epoch, pg.getSize(),
                                       total.front().item<double>());
  }
  if (pg.getRank() == 0 && !options.checkpoint.empty()) {
    torch::save(model, options.checkpoint);
  }
  auto work = pg.barrier();
  work->wait();
  // Data parallel means the same model everywhere: every rank prints the
  // same sum (the tests compare them).
  double sum = 0;
  for (const auto& p : params) sum += p.detach().to(torch::kFloat64).sum().item<double>();
  std::printf("rank %d parameter sum %.12g\n", pg.getRank(), sum);
}

namespace {

size_t parse_size(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') {
    std::fprintf(stderr, "dist_mnist: %s expects a whole number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return static_cast<size_t>(value);
}

double parse_double(const char* flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    std::fprintf(stderr, "dist_mnist: %s expects a number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  bool have_dir = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: dist_mnist [DATA_DIR] [--epochs N] [--batch-size N] [--train-samples N]\n"
          "                  [--lr X] [--momentum X] [--bucket-kb N] [--checkpoint PATH]\n"
          "                  [--timeout S] [--seed N] [--slow-rank R --slow-ms MS]\n"
          "Run one per rank: RANK/WORLD_SIZE (or mpirun's OMPI_COMM_WORLD_*), MASTER_ADDR,\n"
          "MASTER_PORT. --checkpoint '' saves nothing; --bucket-kb 0: one all-reduce a step.\n"
          "--slow-rank R: rank R's data loader sleeps --slow-ms MS (1000) per batch.\n");
      std::exit(0);
    } else if (arg == "--epochs" && has_value) {
      options.epochs = parse_size("--epochs", argv[++i]);
    } else if (arg == "--batch-size" && has_value) {
      options.batch_size = parse_size("--batch-size", argv[++i]);
    } else if (arg == "--train-samples" && has_value) {
      options.train_samples = parse_size("--train-samples", argv[++i]);
    } else if (arg == "--lr" && has_value) {
      options.lr = parse_double("--lr", argv[++i]);
    } else if (arg == "--momentum" && has_value) {
      options.momentum = parse_double("--momentum", argv[++i]);
    } else if (arg == "--bucket-kb" && has_value) {
      options.bucket_kb = parse_size("--bucket-kb", argv[++i]);
    } else if (arg == "--checkpoint" && has_value) {
      options.checkpoint = argv[++i];
    } else if (arg == "--timeout" && has_value) {
      options.timeout_s = parse_size("--timeout", argv[++i]);
    } else if (arg == "--slow-rank" && has_value) {
      options.slow_rank = static_cast<long>(parse_size("--slow-rank", argv[++i]));
    } else if (arg == "--slow-ms" && has_value) {
      options.slow_ms = parse_size("--slow-ms", argv[++i]);
    } else if (arg == "--seed" && has_value) {
      options.seed = parse_size("--seed", argv[++i]);
    } else if (!have_dir && arg.rfind("-", 0) != 0) {
      options.data_dir = arg;
      have_dir = true;
    } else {
      std::fprintf(stderr, "dist_mnist: unexpected argument '%s' (try --help)\n", arg.c_str());
      std::exit(2);
    }
  }
  if (options.batch_size == 0 || options.timeout_s == 0) {
    std::fprintf(stderr, "dist_mnist: --batch-size and --timeout must be positive\n");
    std::exit(2);
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  const World world = world_from_environment();
  // One intra-op thread per rank and the same seed everywhere.
  torch::set_num_threads(1);
  torch::manual_seed(options.seed);

  size_t samples = options.train_samples;
  size_t shard = 0;
  std::unique_ptr<DataLoader> loader;
  try {
    loader = make_loader(options, world, samples, shard);
  } catch (const c10::Error& error) {
    std::fprintf(stderr, "dist_mnist: cannot read MNIST from '%s': %s\n(make_data DIR writes a synthetic set)\n",
                 options.data_dir.c_str(), error.what_without_backtrace());
    return 1;
  }
  auto pg = make_process_group(world, options);

  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(options.lr).momentum(options.momentum));
  std::printf("dist_mnist: rank %d of %d, %zu of %zu images, batch %zu, %zu epochs\n", world.rank, world.size, shard,
              samples, options.batch_size, options.epochs);
  train(model, *loader, optimizer, *pg, options);
  return 0;
}
