// The model of the multi-file program: declared here, defined in model.cpp.
#pragma once

#include <torch/torch.h>

// An autoencoder: 16 features squeezed to a 4-value code and back.
struct AutoencoderImpl : torch::nn::Module {
  AutoencoderImpl(int64_t features, int64_t code);
  torch::Tensor encode(const torch::Tensor &x);
  torch::Tensor forward(const torch::Tensor &x);

  torch::nn::Linear encoder{nullptr}, decoder{nullptr};
};
TORCH_MODULE(Autoencoder);
