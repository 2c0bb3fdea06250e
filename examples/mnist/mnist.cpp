// mnist: a libtorch training pipeline, after pytorch/examples' cpp/mnist.
//
//   mnist [DATA_DIR] [--epochs N] [--batch-size N] [--test-batch-size N]
//         [--train-samples N] [--test-samples N] [--lr X] [--momentum X]
//         [--log-interval N] [--checkpoint PATH] [--threads N] [--seed N]
//
// DATA_DIR (default "data") holds MNIST's four idx files, read through
// torch::data::datasets::MNIST; `make_data DATA_DIR` writes a synthetic set.
// The loaders use sequential samplers limited to the first --train-samples /
// --test-samples images, so a run takes seconds and its output is the same
// every time. The model is saved with torch::save after every epoch.
//
// This file knows nothing of sonde: probes.yaml says where sonde looks.

#include <torch/torch.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

// What the command line can change.
struct Options {
  std::string data_dir = "data";
  size_t epochs = 2;
  size_t batch_size = 64;
  size_t test_batch_size = 250;
  size_t train_samples = 4000;
  size_t test_samples = 1000;
  double lr = 0.05;
  double momentum = 0.5;
  size_t log_interval = 20;
  std::string checkpoint = "mnist-model.pt";
  int threads = 1;
  uint64_t seed = 1;
};

#ifdef MNIST_SEEDED_BUGS
// Silent training bugs for `sonde check` (seeded_bugs.h, docs/invariants.md):
// built into the mnist-bugs target only, chosen with --bug NAME.
#include "seeded_bugs.h"
#endif

// The network of pytorch/examples' MNIST: two convolutions, dropout, two
// fully connected layers, log-softmax over the ten classes.
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

// MNIST images, normalized with MNIST's mean and deviation, stacked into
// batches; the loader walks it in order.
using MnistDataset = torch::data::datasets::MapDataset<
    torch::data::datasets::MapDataset<torch::data::datasets::MNIST, torch::data::transforms::Normalize<>>,
    torch::data::transforms::Stack<>>;
using DataLoader = torch::data::StatelessDataLoader<MnistDataset, torch::data::samplers::SequentialSampler>;

// A loader over the first `samples` images of one split (all of them if
// `samples` is 0 or too large; `samples` is updated to the count used).
std::unique_ptr<DataLoader> make_loader(const std::string& data_dir, torch::data::datasets::MNIST::Mode mode,
                                        size_t& samples, size_t batch_size) {
  auto dataset = torch::data::datasets::MNIST(data_dir, mode)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  const size_t available = dataset.size().value();
  if (samples == 0 || samples > available) samples = available;
  return torch::data::make_data_loader(std::move(dataset), torch::data::samplers::SequentialSampler(samples),
                                       torch::data::DataLoaderOptions().batch_size(batch_size));
}

// One pass over the training set; returns the mean loss of its batches.
double train_epoch(size_t epoch, Net& model, torch::Device device, DataLoader& loader,
                   torch::optim::Optimizer& optimizer, size_t dataset_size, const Options& options) {
#ifdef MNIST_SEEDED_BUGS
  if (seeded_bug == Bug::EvalOn) {
    model.eval();
  } else {
    model.train();
  }
#else
  model.train();
#endif
  size_t batch_idx = 0;
  size_t seen = 0;
  double loss_sum = 0;
  for (auto& batch : loader) {
#ifdef MNIST_SEEDED_BUGS
    auto data = same_batch(batch.data).to(device);
    auto targets = same_batch(batch.target).to(device);
    if (seeded_bug != Bug::NoZeroGrad) {
      optimizer.zero_grad();
    }
    if (seeded_bug == Bug::LrZero && epoch == 1 && batch_idx == 10) {
      optimizer.param_groups()[0].options().set_lr(0);
    }
#else
    auto data = batch.data.to(device);
    auto targets = batch.target.to(device);
    optimizer.zero_grad();
#endif
    auto output = model.forward(data);
    auto loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();

    const double loss_value = loss.item<double>();
    AT_ASSERT(!std::isnan(loss_value));
    loss_sum += loss_value;
    seen += static_cast<size_t>(data.size(0));
    if (batch_idx % options.log_interval == 0) {
      std::printf("Train Epoch: %zu [%5zu/%5zu] Loss: %.4f\n", epoch, seen, dataset_size, loss_value);
    }
    ++batch_idx;
  }
  return batch_idx > 0 ? loss_sum / static_cast<double>(batch_idx) : 0.0;
}

// Evaluates the model on the test set; returns the accuracy.
double test(Net& model, torch::Device device, DataLoader& loader, size_t dataset_size) {
  torch::NoGradGuard no_grad;
  model.eval();
  double test_loss = 0;
  int64_t correct = 0;
  for (const auto& batch : loader) {
    auto data = batch.data.to(device);
    auto targets = batch.target.to(device);
    auto output = model.forward(data);
    test_loss += torch::nll_loss(output, targets, /*weight=*/{}, torch::Reduction::Sum).item<double>();
    auto pred = output.argmax(1);
    correct += pred.eq(targets).sum().item<int64_t>();
  }
  test_loss /= static_cast<double>(dataset_size);
  const double accuracy = static_cast<double>(correct) / static_cast<double>(dataset_size);
  std::printf("Test set: Average loss: %.4f | Accuracy: %.3f (%lld/%zu)\n", test_loss, accuracy,
              static_cast<long long>(correct), dataset_size);
  return accuracy;
}

// The training run: every epoch trains, tests, and saves a checkpoint.
void train(const std::shared_ptr<Net>& model, torch::Device device, DataLoader& train_loader,
           DataLoader& test_loader, torch::optim::Optimizer& optimizer, const Options& options) {
  for (size_t epoch = 1; epoch <= options.epochs; ++epoch) {
    const double train_loss =
        train_epoch(epoch, *model, device, train_loader, optimizer, options.train_samples, options);
    const double accuracy = test(*model, device, test_loader, options.test_samples);
    std::printf("Epoch %zu: mean train loss %.4f, test accuracy %.3f\n", epoch, train_loss, accuracy);
    if (!options.checkpoint.empty()) {
      torch::save(model, options.checkpoint);
    }
  }
}

namespace {

size_t parse_size(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') {
    std::fprintf(stderr, "mnist: %s expects a number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return static_cast<size_t>(value);
}

double parse_double(const char* flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    std::fprintf(stderr, "mnist: %s expects a number, got '%s'\n", flag, text);
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
          "usage: mnist [DATA_DIR] [--epochs N] [--batch-size N] [--test-batch-size N]\n"
          "             [--train-samples N] [--test-samples N] [--lr X] [--momentum X]\n"
          "             [--log-interval N] [--checkpoint PATH] [--threads N] [--seed N]\n"
          "DATA_DIR holds MNIST's idx files (default: data). --checkpoint '' saves nothing.\n");
      std::exit(0);
    } else if (arg == "--epochs" && has_value) {
      options.epochs = parse_size("--epochs", argv[++i]);
    } else if (arg == "--batch-size" && has_value) {
      options.batch_size = parse_size("--batch-size", argv[++i]);
    } else if (arg == "--test-batch-size" && has_value) {
      options.test_batch_size = parse_size("--test-batch-size", argv[++i]);
    } else if (arg == "--train-samples" && has_value) {
      options.train_samples = parse_size("--train-samples", argv[++i]);
    } else if (arg == "--test-samples" && has_value) {
      options.test_samples = parse_size("--test-samples", argv[++i]);
    } else if (arg == "--lr" && has_value) {
      options.lr = parse_double("--lr", argv[++i]);
    } else if (arg == "--momentum" && has_value) {
      options.momentum = parse_double("--momentum", argv[++i]);
    } else if (arg == "--log-interval" && has_value) {
      options.log_interval = parse_size("--log-interval", argv[++i]);
    } else if (arg == "--checkpoint" && has_value) {
      options.checkpoint = argv[++i];
    } else if (arg == "--threads" && has_value) {
      options.threads = static_cast<int>(parse_size("--threads", argv[++i]));
    } else if (arg == "--seed" && has_value) {
      options.seed = parse_size("--seed", argv[++i]);
#ifdef MNIST_SEEDED_BUGS
    } else if (arg == "--bug" && has_value) {
      seeded_bug = parse_bug(argv[++i]);
#endif
    } else if (!have_dir && arg.rfind("-", 0) != 0) {
      options.data_dir = arg;
      have_dir = true;
    } else {
      std::fprintf(stderr, "mnist: unexpected argument '%s' (try --help)\n", arg.c_str());
      std::exit(2);
    }
  }
  if (options.batch_size == 0 || options.test_batch_size == 0 || options.log_interval == 0 ||
      options.threads <= 0) {
    std::fprintf(stderr, "mnist: batch sizes, --log-interval and --threads must be positive\n");
    std::exit(2);
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parse_options(argc, argv);
  // One intra-op thread and a fixed seed: the same numbers on every run.
  torch::set_num_threads(options.threads);
  torch::manual_seed(options.seed);

  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device);

  std::unique_ptr<DataLoader> train_loader, test_loader;
  try {
    train_loader = make_loader(options.data_dir, torch::data::datasets::MNIST::Mode::kTrain,
                               options.train_samples, options.batch_size);
    test_loader = make_loader(options.data_dir, torch::data::datasets::MNIST::Mode::kTest,
                              options.test_samples, options.test_batch_size);
  } catch (const c10::Error& error) {
    std::fprintf(stderr, "mnist: cannot read MNIST from '%s': %s\n(make_data DIR writes a synthetic set)\n",
                 options.data_dir.c_str(), error.what_without_backtrace());
    return 1;
  }

#ifdef MNIST_SEEDED_BUGS
  if (seeded_bug == Bug::Frozen) {
    model->fc1->weight.set_requires_grad(false);
  }
  torch::optim::SGD optimizer(seeded_bug == Bug::Subset ? model->fc2->parameters() : model->parameters(),
                              torch::optim::SGDOptions(options.lr).momentum(options.momentum));
#else
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(options.lr).momentum(options.momentum));
#endif

  std::printf("mnist: %zu train / %zu test images from %s, batch %zu, %zu epochs, %s\n", options.train_samples,
              options.test_samples, options.data_dir.c_str(), options.batch_size, options.epochs,
              device.is_cuda() ? "cuda" : "cpu");
  train(model, device, *train_loader, *test_loader, optimizer, options);
  return 0;
}
