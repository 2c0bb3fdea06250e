// multifile: trains the autoencoder of model.h/model.cpp on points of a
// 4-dimensional subspace of R^16, made in-process and served by a
// TensorDataset through a data loader.
//
// These files know nothing of sonde: multifile.yaml says where sonde looks.

#include "model.h"

#include <cstdio>

double run_epoch(Autoencoder &model, torch::optim::Optimizer &optimizer,
                 torch::data::StatelessDataLoader<
                     torch::data::datasets::MapDataset<torch::data::datasets::TensorDataset,
                                                       torch::data::transforms::Stack<torch::data::TensorExample>>,
                     torch::data::samplers::SequentialSampler> &loader) {
  double sum = 0;
  int batches = 0;
  for (auto &batch : loader) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(batch.data), batch.data);
    loss.backward();
    optimizer.step();
    sum += loss.item<double>();
    ++batches;
  }
  return sum / batches;
}

int main() {
  torch::manual_seed(5);
  torch::set_num_threads(1);
  auto points = torch::randn({96, 4}).mm(torch::randn({4, 16}));
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      torch::data::datasets::TensorDataset(points).map(torch::data::transforms::Stack<torch::data::TensorExample>()),
      16);
  Autoencoder model(16, 4);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  for (int epoch = 0; epoch < 3; ++epoch)
    std::printf("epoch %d loss %.4f\n", epoch, run_epoch(model, optimizer, *loader));
  return 0;
}
