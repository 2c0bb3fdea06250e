// plain: a dependency-free C++17 trainer.
//
//   plain [--epochs N] [--batch-size N] [--train-samples N] [--test-samples N]
//         [--hidden N] [--lr X] [--log-interval N] [--checkpoint PATH] [--seed N]
//
// A one-hidden-layer MLP learns to classify points drawn from a mixture of
// Gaussian blobs (three per class, 3 % label noise), using mini-batch SGD
// with momentum and a softmax cross-entropy loss. The data is generated from a
// fixed seed, the loader shuffles with a fixed seed, so every run prints the
// same numbers. The weights are written to a checkpoint after every epoch.
//
// The pieces have the names a training program usually has: a DataLoader
// iterated with range-for, Mlp::forward, Mlp::backward, Sgd::step, train,
// train_epoch, evaluate, save_checkpoint. This file knows nothing of sonde:
// probes.yaml says where sonde looks.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

// What the command line can change.
struct Options {
  size_t epochs = 5;
  size_t batch_size = 32;
  size_t train_samples = 40000;
  size_t test_samples = 8000;
  size_t features = 16;
  size_t hidden = 128;
  size_t classes = 4;
  double lr = 0.01;
  double momentum = 0.9;
  size_t log_interval = 250;
  std::string checkpoint = "plain-model.bin";
  uint64_t seed = 7;
};

// splitmix64, plus the few distributions we need: the same numbers on every
// platform and standard library (std::normal_distribution is not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double normal() {  // Box-Muller
    const double u = 1.0 - uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

// A row-major matrix of floats.
struct Matrix {
  size_t rows = 0, cols = 0;
  std::vector<float> data;

  Matrix() = default;
  Matrix(size_t r, size_t c) : rows(r), cols(c), data(r * c, 0.0f) {}
  float* row(size_t r) { return &data[r * cols]; }
  const float* row(size_t r) const { return &data[r * cols]; }
  void resize(size_t r, size_t c) {
    rows = r;
    cols = c;
    data.assign(r * c, 0.0f);
  }
};

// A labelled set of points.
struct Dataset {
  Matrix x;
  std::vector<int> y;
  size_t size() const { return y.size(); }
};

// A mixture of Gaussian blobs: each class owns three random centres, a point
// is one centre plus unit noise (so classes overlap a little and are not
// linearly separable), with 3 % of the labels replaced at random.
Dataset make_dataset(size_t n, const Options& options, uint64_t seed) {
  const size_t blobs_per_class = 3;
  Rng centre_rng(options.seed * 1000003u + 1);  // the same centres for every split
  Matrix centres(options.classes * blobs_per_class, options.features);
  for (float& c : centres.data) c = static_cast<float>(centre_rng.normal() * 0.8 + 5.0);

  Rng rng(seed);
  Dataset set;
  set.x.resize(n, options.features);
  set.y.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t blob = rng.below(centres.rows);
    float* x = set.x.row(i);
    for (size_t f = 0; f < options.features; ++f) {
      x[f] = centres.row(blob)[f] + static_cast<float>(rng.normal());
    }
    const int label = static_cast<int>(blob / blobs_per_class);
    set.y[i] = rng.uniform() < 0.03 ? static_cast<int>(rng.below(options.classes)) : label;
  }
  return set;
}

// Feature-wise standardization with the training set's mean and deviation.
struct Standardizer {
  std::vector<float> mean, inv_std;

  explicit Standardizer(const Dataset& train) : mean(train.x.cols, 0.0f), inv_std(train.x.cols, 0.0f) {
    const size_t n = train.size(), d = train.x.cols;
    std::vector<double> sum(d, 0.0), sq(d, 0.0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t f = 0; f < d; ++f) {
        sum[f] += train.x.row(i)[f];
        sq[f] += static_cast<double>(train.x.row(i)[f]) * train.x.row(i)[f];
      }
    }
    for (size_t f = 0; f < d; ++f) {
      const double m = sum[f] / n;
      mean[f] = static_cast<float>(m);
      inv_std[f] = static_cast<float>(1.0 / std::sqrt(std::max(sq[f] / n - m * m, 1e-12)));
    }
  }

  void apply(Dataset& set) const {
    for (size_t i = 0; i < set.size(); ++i) {
      float* x = set.x.row(i);
      for (size_t f = 0; f < set.x.cols; ++f) x[f] = (x[f] - mean[f]) * inv_std[f];
    }
  }
};

// One mini-batch: rows of inputs and their labels.
struct Batch {
  Matrix x;
  std::vector<int> y;
  size_t size() const { return y.size(); }
};

// Walks a dataset in mini-batches, reshuffled (with a fixed seed) at every
// pass when `shuffle` is set. Use it with range-for:
//   for (const Batch& batch : loader) { ... }
// Advancing the iterator gathers the next batch: that is the fetch.
class DataLoader {
 public:
  DataLoader(const Dataset& dataset, size_t batch_size, bool shuffle, uint64_t seed)
      : dataset_(dataset), batch_size_(batch_size), shuffle_(shuffle), rng_(seed), order_(dataset.size()) {
    std::iota(order_.begin(), order_.end(), size_t{0});
  }

  class Iterator {
   public:
    Iterator(DataLoader* loader, size_t pos) : loader_(loader), pos_(pos) {
      if (loader_ != nullptr) load();
    }
    const Batch& operator*() const { return batch_; }
    Iterator& operator++() {
      pos_ = std::min(pos_ + loader_->batch_size_, loader_->dataset_.size());
      load();
      return *this;
    }
    bool operator!=(const Iterator& other) const { return pos_ != other.pos_; }

   private:
    void load() {
      const Dataset& data = loader_->dataset_;
      const size_t end = std::min(pos_ + loader_->batch_size_, data.size());
      if (pos_ >= end) return;
      batch_.x.resize(end - pos_, data.x.cols);
      batch_.y.resize(end - pos_);
      for (size_t i = pos_; i < end; ++i) {
        const size_t src = loader_->order_[i];
        std::copy(data.x.row(src), data.x.row(src) + data.x.cols, batch_.x.row(i - pos_));
        batch_.y[i - pos_] = data.y[src];
      }
    }

    DataLoader* loader_;
    size_t pos_;
    Batch batch_;
  };

  Iterator begin() {
    if (shuffle_) {
      for (size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[rng_.below(i)]);
    }
    return Iterator(this, 0);
  }
  Iterator end() { return Iterator(nullptr, dataset_.size()); }
  size_t batches() const { return (dataset_.size() + batch_size_ - 1) / batch_size_; }

 private:
  const Dataset& dataset_;
  size_t batch_size_;
  bool shuffle_;
  Rng rng_;
  std::vector<size_t> order_;
};

// A trainable tensor and its gradient.
struct Parameter {
  Matrix value, grad;
};

// input -> Linear -> ReLU -> Linear -> softmax. forward() keeps what
// backward() needs.
class Mlp {
 public:
  Mlp(size_t in, size_t hidden, size_t out, Rng& rng) {
    w1_.value.resize(hidden, in);
    b1_.value.resize(1, hidden);
    w2_.value.resize(out, hidden);
    b2_.value.resize(1, out);
    init(w1_, in, rng);
    init(w2_, hidden, rng);
    for (Parameter* p : parameters()) p->grad.resize(p->value.rows, p->value.cols);
  }

  std::vector<Parameter*> parameters() { return {&w1_, &b1_, &w2_, &b2_}; }

  // Returns the class probabilities of each row of `x`.
  const Matrix& forward(const Matrix& x) {
    input_ = &x;
    linear(x, w1_, b1_, hidden_);
    for (float& h : hidden_.data) h = std::max(h, 0.0f);
    linear(hidden_, w2_, b2_, probs_);
    for (size_t r = 0; r < probs_.rows; ++r) {
      float* p = probs_.row(r);
      const float top = *std::max_element(p, p + probs_.cols);
      float sum = 0;
      for (size_t c = 0; c < probs_.cols; ++c) sum += (p[c] = std::exp(p[c] - top));
      for (size_t c = 0; c < probs_.cols; ++c) p[c] /= sum;
    }
    return probs_;
  }

  // Accumulates the gradients of the mean cross-entropy of the last forward
  // pass against `labels`.
  void backward(const std::vector<int>& labels) {
    const Matrix& x = *input_;
    const size_t n = probs_.rows;
    const float scale = 1.0f / static_cast<float>(n);
    d_logits_.resize(n, probs_.cols);
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < probs_.cols; ++c) {
        d_logits_.row(r)[c] = (probs_.row(r)[c] - (static_cast<int>(c) == labels[r] ? 1.0f : 0.0f)) * scale;
      }
    }
    d_hidden_.resize(n, hidden_.cols);
    for (size_t r = 0; r < n; ++r) {
      const float* g = d_logits_.row(r);
      const float* h = hidden_.row(r);
      float* dh = d_hidden_.row(r);
      for (size_t c = 0; c < w2_.value.rows; ++c) {
        const float* w = w2_.value.row(c);
        float* dw = w2_.grad.row(c);
        for (size_t j = 0; j < hidden_.cols; ++j) {
          dw[j] += g[c] * h[j];
          dh[j] += g[c] * w[j];
        }
        b2_.grad.data[c] += g[c];
      }
      for (size_t j = 0; j < hidden_.cols; ++j) {
        if (h[j] <= 0.0f) dh[j] = 0.0f;  // ReLU
      }
      for (size_t j = 0; j < w1_.value.rows; ++j) {
        float* dw = w1_.grad.row(j);
        const float* xi = x.row(r);
        for (size_t f = 0; f < x.cols; ++f) dw[f] += dh[j] * xi[f];
        b1_.grad.data[j] += dh[j];
      }
    }
  }

  void write(std::ostream& out) {
    for (Parameter* p : parameters()) {
      const uint64_t dims[2] = {p->value.rows, p->value.cols};
      out.write(reinterpret_cast<const char*>(dims), sizeof dims);
      out.write(reinterpret_cast<const char*>(p->value.data.data()),
                static_cast<std::streamsize>(p->value.data.size() * sizeof(float)));
    }
  }

 private:
  static void init(Parameter& p, size_t fan_in, Rng& rng) {
    const double scale = std::sqrt(2.0 / static_cast<double>(fan_in));  // He
    for (float& w : p.value.data) w = static_cast<float>(rng.normal() * scale);
  }

  // out = x * w^T + b
  static void linear(const Matrix& x, const Parameter& w, const Parameter& b, Matrix& out) {
    out.resize(x.rows, w.value.rows);
    for (size_t r = 0; r < x.rows; ++r) {
      const float* xi = x.row(r);
      float* o = out.row(r);
      for (size_t j = 0; j < w.value.rows; ++j) {
        const float* wj = w.value.row(j);
        float s = b.value.data[j];
        for (size_t f = 0; f < x.cols; ++f) s += wj[f] * xi[f];
        o[j] = s;
      }
    }
  }

  Parameter w1_, b1_, w2_, b2_;
  const Matrix* input_ = nullptr;
  Matrix hidden_, probs_, d_logits_, d_hidden_;
};

// Stochastic gradient descent with momentum.
class Sgd {
 public:
  Sgd(std::vector<Parameter*> params, double lr, double momentum)
      : params_(std::move(params)), lr_(static_cast<float>(lr)), momentum_(static_cast<float>(momentum)) {
    for (Parameter* p : params_) velocity_.emplace_back(p->value.data.size(), 0.0f);
  }

  void zero_grad() {
    for (Parameter* p : params_) std::fill(p->grad.data.begin(), p->grad.data.end(), 0.0f);
  }

  void step() {
    for (size_t i = 0; i < params_.size(); ++i) {
      std::vector<float>& v = velocity_[i];
      std::vector<float>& w = params_[i]->value.data;
      const std::vector<float>& g = params_[i]->grad.data;
      for (size_t k = 0; k < w.size(); ++k) {
        v[k] = momentum_ * v[k] + g[k];
        w[k] -= lr_ * v[k];
      }
    }
  }

 private:
  std::vector<Parameter*> params_;
  float lr_, momentum_;
  std::vector<std::vector<float>> velocity_;
};

// Mean negative log-likelihood of the labels under `probs`.
double cross_entropy(const Matrix& probs, const std::vector<int>& labels) {
  double sum = 0;
  for (size_t r = 0; r < probs.rows; ++r) sum -= std::log(std::max(probs.row(r)[labels[r]], 1e-12f));
  return sum / static_cast<double>(probs.rows);
}

// Number of rows whose most probable class is the label.
size_t count_correct(const Matrix& probs, const std::vector<int>& labels) {
  size_t correct = 0;
  for (size_t r = 0; r < probs.rows; ++r) {
    const float* p = probs.row(r);
    if (std::max_element(p, p + probs.cols) - p == labels[r]) ++correct;
  }
  return correct;
}

void save_checkpoint(Mlp& model, size_t epoch, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const uint64_t header[2] = {0x736F6E64656D6C70ull, epoch};
  out.write(reinterpret_cast<const char*>(header), sizeof header);
  model.write(out);
  if (!out) std::fprintf(stderr, "plain: could not write checkpoint %s\n", path.c_str());
}

// One pass over the training set; returns the mean loss of its batches.
double train_epoch(size_t epoch, Mlp& model, DataLoader& loader, Sgd& optimizer, const Options& options) {
  size_t batch_idx = 0;
  double loss_sum = 0;
  for (const Batch& batch : loader) {
    optimizer.zero_grad();
    const Matrix& probs = model.forward(batch.x);
    const double loss = cross_entropy(probs, batch.y);
    model.backward(batch.y);
    optimizer.step();

    loss_sum += loss;
    if (batch_idx % options.log_interval == 0) {
      std::printf("Train Epoch: %zu [%4zu/%4zu] Loss: %.4f\n", epoch, batch_idx, loader.batches(), loss);
    }
    ++batch_idx;
  }
  return batch_idx > 0 ? loss_sum / static_cast<double>(batch_idx) : 0.0;
}

// Loss and accuracy on a held-out set; returns the accuracy.
double evaluate(Mlp& model, DataLoader& loader) {
  double loss_sum = 0;
  size_t correct = 0, seen = 0;
  for (const Batch& batch : loader) {
    const Matrix& probs = model.forward(batch.x);
    loss_sum += cross_entropy(probs, batch.y) * static_cast<double>(batch.size());
    correct += count_correct(probs, batch.y);
    seen += batch.size();
  }
  const double accuracy = seen > 0 ? static_cast<double>(correct) / static_cast<double>(seen) : 0.0;
  std::printf("Test set: Average loss: %.4f | Accuracy: %.3f (%zu/%zu)\n",
              seen > 0 ? loss_sum / static_cast<double>(seen) : 0.0, accuracy, correct, seen);
  return accuracy;
}

// The training run: every epoch trains, evaluates, and writes a checkpoint.
void train(Mlp& model, DataLoader& train_loader, DataLoader& test_loader, Sgd& optimizer, const Options& options) {
  for (size_t epoch = 1; epoch <= options.epochs; ++epoch) {
    const double train_loss = train_epoch(epoch, model, train_loader, optimizer, options);
    const double accuracy = evaluate(model, test_loader);
    std::printf("Epoch %zu: mean train loss %.4f, test accuracy %.3f\n", epoch, train_loss, accuracy);
    if (!options.checkpoint.empty()) save_checkpoint(model, epoch, options.checkpoint);
  }
}

namespace {

size_t parse_size(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') {
    std::fprintf(stderr, "plain: %s expects a number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return static_cast<size_t>(value);
}

double parse_double(const char* flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    std::fprintf(stderr, "plain: %s expects a number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: plain [--epochs N] [--batch-size N] [--train-samples N] [--test-samples N]\n"
          "             [--hidden N] [--lr X] [--log-interval N] [--checkpoint PATH] [--seed N]\n"
          "--checkpoint '' writes no checkpoint.\n");
      std::exit(0);
    } else if (arg == "--epochs" && has_value) {
      options.epochs = parse_size("--epochs", argv[++i]);
    } else if (arg == "--batch-size" && has_value) {
      options.batch_size = parse_size("--batch-size", argv[++i]);
    } else if (arg == "--train-samples" && has_value) {
      options.train_samples = parse_size("--train-samples", argv[++i]);
    } else if (arg == "--test-samples" && has_value) {
      options.test_samples = parse_size("--test-samples", argv[++i]);
    } else if (arg == "--hidden" && has_value) {
      options.hidden = parse_size("--hidden", argv[++i]);
    } else if (arg == "--lr" && has_value) {
      options.lr = parse_double("--lr", argv[++i]);
    } else if (arg == "--log-interval" && has_value) {
      options.log_interval = parse_size("--log-interval", argv[++i]);
    } else if (arg == "--checkpoint" && has_value) {
      options.checkpoint = argv[++i];
    } else if (arg == "--seed" && has_value) {
      options.seed = parse_size("--seed", argv[++i]);
    } else {
      std::fprintf(stderr, "plain: unexpected argument '%s' (try --help)\n", arg.c_str());
      std::exit(2);
    }
  }
  if (options.batch_size == 0 || options.log_interval == 0 || options.hidden == 0 || options.train_samples == 0) {
    std::fprintf(stderr, "plain: --batch-size, --log-interval, --hidden and --train-samples must be positive\n");
    std::exit(2);
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);

  Dataset train_set = make_dataset(options.train_samples, options, options.seed);
  Dataset test_set = make_dataset(options.test_samples, options, options.seed + 1);
  const Standardizer standardize(train_set);
  standardize.apply(train_set);
  standardize.apply(test_set);

  DataLoader train_loader(train_set, options.batch_size, /*shuffle=*/true, options.seed + 2);
  DataLoader test_loader(test_set, options.batch_size, /*shuffle=*/false, 0);

  Rng init_rng(options.seed + 3);
  Mlp model(options.features, options.hidden, options.classes, init_rng);
  Sgd optimizer(model.parameters(), options.lr, options.momentum);

  std::printf("plain: %zu train / %zu test points, %zu features, %zu classes, hidden %zu, batch %zu, %zu epochs\n",
              train_set.size(), test_set.size(), options.features, options.classes, options.hidden,
              options.batch_size, options.epochs);
  train(model, train_loader, test_loader, optimizer, options);
  return 0;
}
