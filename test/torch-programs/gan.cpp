// gan: a generative adversarial network in the shape of the DCGAN programs
// written for libtorch: a TORCH_MODULE generator, a Sequential
// discriminator, two optimizers and three losses a batch (real, fake, and the
// generator's), over a data loader of its own dataset. The "real" data are
// points on a circle, made in-process.
//
// This file knows nothing of sonde: gan.yaml says where sonde looks.

#include <torch/torch.h>

#include <cmath>
#include <cstdio>

constexpr int64_t kNoise = 4;

// Points on the unit circle, as 2-vectors; the label is unused.
class Circle : public torch::data::datasets::Dataset<Circle> {
public:
  explicit Circle(int64_t count) {
    auto angle = torch::arange(count, torch::kFloat) * (2 * std::acos(-1.0) / static_cast<double>(count));
    points_ = torch::stack({torch::cos(angle), torch::sin(angle)}, 1);
  }
  torch::data::Example<> get(size_t index) override { return {points_[index], torch::zeros({1})}; }
  torch::optional<size_t> size() const override { return static_cast<size_t>(points_.size(0)); }

private:
  torch::Tensor points_;
};

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl() : hidden(kNoise, 16), out(16, 2) {
    register_module("hidden", hidden);
    register_module("out", out);
  }
  torch::Tensor forward(torch::Tensor noise) { return torch::tanh(out(torch::relu(hidden(noise)))); }
  torch::nn::Linear hidden, out;
};
TORCH_MODULE(Generator);

int main() {
  torch::manual_seed(3);
  torch::set_num_threads(1);
  Generator generator;
  // The layers are made first, in order: the order in which a compiler
  // evaluates constructor arguments (and so draws their initial weights) is
  // unspecified.
  torch::nn::Linear d_hidden(2, 16), d_out(16, 1);
  torch::nn::Sequential discriminator(d_hidden, torch::nn::LeakyReLU(), d_out, torch::nn::Sigmoid());
  torch::optim::Adam generator_optimizer(generator->parameters(), torch::optim::AdamOptions(2e-3));
  torch::optim::Adam discriminator_optimizer(discriminator->parameters(), torch::optim::AdamOptions(2e-3));

  auto data_loader = torch::data::make_data_loader(Circle(128).map(torch::data::transforms::Stack<>()),
                                                   torch::data::DataLoaderOptions().batch_size(32));
  for (int64_t epoch = 0; epoch < 2; ++epoch) {
    int64_t batch_index = 0;
    for (torch::data::Example<> &batch : *data_loader) {
      const int64_t n = batch.data.size(0);
      // The discriminator: real points towards 0.9, generated ones towards 0.
      discriminator->zero_grad();
      auto real_labels = torch::full({n, 1}, 0.9);
      auto real_output = discriminator->forward(batch.data);
      auto d_loss_real = torch::binary_cross_entropy(real_output, real_labels);
      d_loss_real.backward();

      auto fake = generator->forward(torch::randn({n, kNoise}));
      auto fake_labels = torch::zeros({n, 1});
      auto fake_output = discriminator->forward(fake.detach());
      auto d_loss_fake = torch::binary_cross_entropy(fake_output, fake_labels);
      d_loss_fake.backward();
      auto d_loss = d_loss_real + d_loss_fake;
      discriminator_optimizer.step();

      // The generator: its points should pass for real.
      generator->zero_grad();
      fake_labels.fill_(1);
      fake_output = discriminator->forward(fake);
      auto g_loss = torch::binary_cross_entropy(fake_output, fake_labels);
      g_loss.backward();
      generator_optimizer.step();

      std::printf("epoch %lld batch %lld d_loss %.4f g_loss %.4f\n", static_cast<long long>(epoch),
                  static_cast<long long>(batch_index), d_loss.item<float>(), g_loss.item<float>());
      ++batch_index;
    }
  }
  return 0;
}
