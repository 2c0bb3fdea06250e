// lstm: a character-level language model in the shape of the libtorch LSTM
// tutorials: embedding, LSTM, linear head; the corpus cut into fixed-length
// pieces and the hidden state (h, c) carried from one piece to the next,
// detached at each step (truncated backpropagation through time). The text is
// a repeating pattern of token ids made in-process. Built by CMakeLists.txt,
// as a libtorch project writes it.
//
// This file knows nothing of sonde: lstm.yaml says where sonde looks.

#include <torch/torch.h>

#include <cstdio>
#include <tuple>

constexpr int64_t kVocab = 8, kEmbed = 8, kHidden = 16, kLayers = 1;

struct LanguageModelImpl : torch::nn::Module {
  LanguageModelImpl()
      : embedding(kVocab, kEmbed), lstm(torch::nn::LSTMOptions(kEmbed, kHidden).num_layers(kLayers).batch_first(true)),
        head(kHidden, kVocab) {
    register_module("embedding", embedding);
    register_module("lstm", lstm);
    register_module("head", head);
  }

  // Logits for every position, and the state after the last one.
  std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>>
  forward(const torch::Tensor &tokens, const std::tuple<torch::Tensor, torch::Tensor> &state) {
    auto [output, next_state] = lstm->forward(embedding->forward(tokens), state);
    return {head->forward(output.reshape({-1, kHidden})), next_state};
  }

  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear head;
};
TORCH_MODULE(LanguageModel);

void train(LanguageModel &model, const torch::Tensor &corpus, int64_t seq_len, int64_t epochs) {
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  const int64_t batch = corpus.size(0);
  const int64_t steps = (corpus.size(1) - 1) / seq_len;
  for (int64_t epoch = 0; epoch < epochs; ++epoch) {
    auto h = torch::zeros({kLayers, batch, kHidden});
    auto c = torch::zeros({kLayers, batch, kHidden});
    double total = 0;
    for (int64_t step = 0; step < steps; ++step) {
      // The state carries over, but the gradient stops at the piece's start.
      h = h.detach();
      c = c.detach();
      auto inputs = corpus.narrow(1, step * seq_len, seq_len);
      auto targets = corpus.narrow(1, step * seq_len + 1, seq_len).reshape({-1});
      auto [logits, state] = model->forward(inputs, {h, c});
      h = std::get<0>(state);
      c = std::get<1>(state);
      auto loss = torch::nn::functional::cross_entropy(logits, targets);
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
      optimizer.step();
      total += loss.item<double>();
    }
    std::printf("epoch %lld mean loss %.4f\n", static_cast<long long>(epoch), total / static_cast<double>(steps));
  }
}

int main() {
  torch::manual_seed(4);
  torch::set_num_threads(1);
  // 4 rows of 41 tokens: 0 1 2 ... 7 0 1 ..., each row shifted by its index.
  auto corpus = (torch::arange(41, torch::kLong).unsqueeze(0) + torch::arange(4, torch::kLong).unsqueeze(1)) % kVocab;
  LanguageModel model;
  train(model, corpus, /*seq_len=*/8, /*epochs=*/2);
  return 0;
}
