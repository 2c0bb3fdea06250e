// digits: a classifier in the shape of most libtorch training programs: a
// TORCH_MODULE CNN, train() and test() written as function templates over
// whatever data loader they are given, and a dataset class of its own mapped
// through transforms (Normalize, a Lambda, Stack) into batches by
// torch::data::make_data_loader. The images are made in-process: 12x12 noise
// with one bright quadrant, whose index is the label.
//
// This file knows nothing of sonde: digits.yaml says where sonde looks.

#include <torch/torch.h>

#include <cstdint>
#include <cstdio>

// Four classes of 1x12x12 images; image i has its bright quadrant at i % 4.
class Quadrants : public torch::data::datasets::Dataset<Quadrants> {
public:
  explicit Quadrants(int64_t count) : images_(torch::rand({count, 1, 12, 12})) {
    labels_ = torch::arange(count, torch::kLong) % 4;
    for (int64_t i = 0; i < count; ++i) {
      const int64_t q = i % 4;
      images_[i].narrow(1, (q / 2) * 6, 6).narrow(2, (q % 2) * 6, 6).add_(1.0);
    }
  }

  torch::data::Example<> get(size_t index) override { return {images_[index], labels_[index]}; }

  torch::optional<size_t> size() const override { return static_cast<size_t>(images_.size(0)); }

private:
  torch::Tensor images_, labels_;
};

// A per-example transform: sharpens the contrast of one image.
torch::data::Example<> sharpen(torch::data::Example<> example) {
  example.data = example.data * 1.5;
  return example;
}

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(torch::nn::Conv2dOptions(1, 8, 3)), conv2(torch::nn::Conv2dOptions(8, 16, 3)), fc1(16, 32),
        fc2(32, 4) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2)); // 8x5x5
    x = torch::relu(torch::max_pool2d(conv2->forward(x), 2)); // 16x1x1
    x = torch::relu(fc1->forward(x.view({-1, 16})));
    return torch::log_softmax(fc2->forward(x), /*dim=*/1);
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

template <typename DataLoader>
void train(size_t epoch, Net &model, DataLoader &data_loader, torch::optim::Optimizer &optimizer) {
  model->train();
  size_t batch_idx = 0;
  for (auto &batch : data_loader) {
    optimizer.zero_grad();
    auto output = model->forward(batch.data);
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    optimizer.step();
    if (batch_idx % 4 == 0)
      std::printf("train epoch %zu batch %zu loss %.4f\n", epoch, batch_idx, loss.template item<float>());
    ++batch_idx;
  }
}

template <typename DataLoader>
void test(Net &model, DataLoader &data_loader, size_t dataset_size) {
  torch::NoGradGuard no_grad;
  model->eval();
  double test_loss = 0;
  int64_t correct = 0;
  for (const auto &batch : data_loader) {
    auto output = model->forward(batch.data);
    test_loss += torch::nll_loss(output, batch.target, {}, torch::Reduction::Sum).template item<double>();
    correct += output.argmax(1).eq(batch.target).sum().template item<int64_t>();
  }
  std::printf("test loss %.4f accuracy %lld/%zu\n", test_loss / static_cast<double>(dataset_size),
              static_cast<long long>(correct), dataset_size);
}

int main() {
  torch::manual_seed(1);
  torch::set_num_threads(1);
  Net model;

  // Training: normalized, sharpened, stacked, in order, 8 batches of 32.
  auto train_set = Quadrants(256)
                       .map(torch::data::transforms::Normalize<>(0.75, 0.5))
                       .map(torch::data::transforms::Lambda<torch::data::Example<>>(sharpen))
                       .map(torch::data::transforms::Stack<>());
  auto train_loader =
      torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(std::move(train_set), 32);
  // Test: another loader type (no Lambda, a random sampler), 2 batches of 64.
  auto test_set = Quadrants(128)
                      .map(torch::data::transforms::Normalize<>(0.75, 0.5))
                      .map(torch::data::transforms::Stack<>());
  const size_t test_size = test_set.size().value();
  auto test_loader = torch::data::make_data_loader(std::move(test_set), 64);

  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.5));
  for (size_t epoch = 1; epoch <= 2; ++epoch) {
    train(epoch, model, *train_loader, optimizer);
    test(model, *test_loader, test_size);
  }
  return 0;
}
