// regression: fits a cubic with one Linear layer, in the shape of the small
// regression programs libtorch users write: features made by a helper,
// std::tie of a (features, targets) pair, and the loss taken of the module's
// call directly, `torch::smooth_l1_loss(fc(batch_x), batch_y)`.
//
// This file knows nothing of sonde: regression.yaml says where sonde looks.

#include <torch/torch.h>

#include <cstdio>
#include <tuple>
#include <utility>

// [x, x^2, x^3] for a batch of scalars x, one row each.
torch::Tensor cubic_features(const torch::Tensor &x) {
  auto column = x.unsqueeze(1);
  return torch::cat({column, column * column, column * column * column}, 1);
}

// A batch of inputs and the cubic's values at them.
std::pair<torch::Tensor, torch::Tensor> sample_batch(const torch::Tensor &weights, double bias, int64_t size) {
  auto features = cubic_features(torch::rand({size}) * 2 - 1);
  return {features, features.mm(weights) + bias};
}

int main() {
  torch::manual_seed(2);
  torch::set_num_threads(1);
  const auto weights = torch::tensor({0.5, -1.0, 2.0}, torch::kFloat).unsqueeze(1);
  torch::nn::Linear fc(3, 1);
  torch::optim::SGD optimizer(fc->parameters(), 0.2);

  torch::Tensor batch_x, batch_y;
  for (int step = 0; step < 40; ++step) {
    std::tie(batch_x, batch_y) = sample_batch(weights, 0.25, 32);
    optimizer.zero_grad();
    auto loss = torch::smooth_l1_loss(fc(batch_x), batch_y);
    loss.backward();
    optimizer.step();
    if (step % 10 == 0)
      std::printf("step %d loss %.6f\n", step, loss.item<double>());
  }
  std::printf("bias %.4f\n", fc->bias.item<double>());
  return 0;
}
