//===- handwritten.cpp - libsonde's API used by hand ----------------------===//
//
// A logistic regression on generated data, with probes written by hand:
// what sonde-rewrite and the plugin insert for you from a probes.yaml, and
// what you can write yourself where you want a probe the spec cannot say.
//
//   handwritten [EPOCHS]      then: sonde summary .
//
//===----------------------------------------------------------------------===//

#include <sonde/sonde.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct Example {
  std::vector<double> X;
  int Y;
};

/// Batches of a data set, iterated with range-for.
class Loader {
public:
  Loader(const std::vector<Example> &Data, size_t BatchSize)
      : Data(Data), BatchSize(BatchSize) {}
  struct iterator {
    const Loader *L;
    size_t Pos;
    std::vector<Example> operator*() const {
      size_t End = std::min(Pos + L->BatchSize, L->Data.size());
      return {L->Data.begin() + Pos, L->Data.begin() + End};
    }
    iterator &operator++() {
      Pos += L->BatchSize;
      return *this;
    }
    bool operator!=(const iterator &O) const { return Pos < O.Pos; }
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, Data.size()}; }

private:
  const std::vector<Example> &Data;
  size_t BatchSize;
};

std::vector<Example> makeData(size_t N, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::normal_distribution<double> Noise(0, 1);
  std::vector<Example> Out;
  for (size_t I = 0; I < N; ++I) {
    int Y = static_cast<int>(I % 2);
    Example E{std::vector<double>(8), Y};
    for (double &V : E.X)
      V = Noise(Gen) + (Y ? 0.8 : -0.8);
    Out.push_back(std::move(E));
  }
  return Out;
}

struct Model {
  std::vector<double> W = std::vector<double>(8, 0.0);
  double B = 0;

  std::vector<double> forward(const std::vector<Example> &Batch) const {
    SONDE_REGION("compute.forward", "forward");
    std::vector<double> P;
    for (const Example &E : Batch) {
      double Z = B;
      for (size_t I = 0; I < W.size(); ++I)
        Z += W[I] * E.X[I];
      P.push_back(1 / (1 + std::exp(-Z)));
    }
    return P;
  }
};

// Sites with args: `epoch` is context for everything nested in the epoch.
sonde::Site EpochSite(sonde::SiteKind::Region, "pipeline.epoch", "epoch",
                      "handwritten.cpp", 0, "train", 0, sonde::ContextArgs,
                      "epoch");
sonde::Site FetchSite(sonde::SiteKind::Region, "dataloader.fetch",
                      "fetch.iter", "handwritten.cpp", 0, "train");
sonde::Site BlockSite(sonde::SiteKind::Region, "dataloader.fetch",
                      "fetch.block", "handwritten.cpp", 0, "train");

double train(Model &M, const std::vector<Example> &Data, int Epochs) {
  SONDE_REGION("pipeline.train", "train");
  double Loss = 0;
  for (int Epoch = 0; Epoch < Epochs; ++Epoch) {
    sonde::Region R(EpochSite, Epoch);
    double Sum = 0;
    size_t N = 0;
    for (const auto &Batch : sonde::iterate(FetchSite, BlockSite,
                                            Loader(Data, 32))) {
      std::vector<double> P = M.forward(Batch);
      std::vector<double> GradW(M.W.size(), 0.0);
      double GradB = 0;
      {
        SONDE_REGION("compute.backward", "backward");
        for (size_t I = 0; I < Batch.size(); ++I) {
          double D = P[I] - Batch[I].Y;
          for (size_t J = 0; J < GradW.size(); ++J)
            GradW[J] += D * Batch[I].X[J] / Batch.size();
          GradB += D / Batch.size();
          Sum -= Batch[I].Y ? std::log(P[I]) : std::log(1 - P[I]);
          ++N;
        }
      }
      {
        SONDE_REGION("compute.step", "step");
        for (size_t J = 0; J < GradW.size(); ++J)
          M.W[J] -= 0.5 * GradW[J];
        M.B -= 0.5 * GradB;
      }
    }
    Loss = Sum / N;
    SONDE_WATCH("loss", Loss);
    std::printf("epoch %d loss %.4f\n", Epoch, Loss);
  }
  return Loss;
}

} // namespace

int main(int Argc, char **Argv) {
  int Epochs = Argc > 1 ? std::atoi(Argv[1]) : 5;
  std::vector<Example> Data = makeData(2048, 7);
  Model M;
  train(M, Data, Epochs);
  SONDE_INSTANT("pipeline", "done");
  std::printf("trace: %s\n", sonde::traceFile());
  return 0;
}
