#include "model.h"

AutoencoderImpl::AutoencoderImpl(int64_t features, int64_t code)
    : encoder(register_module("encoder", torch::nn::Linear(features, code))),
      decoder(register_module("decoder", torch::nn::Linear(code, features))) {}

torch::Tensor AutoencoderImpl::encode(const torch::Tensor &x) { return torch::tanh(encoder->forward(x)); }

torch::Tensor AutoencoderImpl::forward(const torch::Tensor &x) { return decoder->forward(encode(x)); }
