// A small trainer with one probe of each kind, for front-doors.py.
#include <cstdio>
#include <stdexcept>
#include <vector>

struct Net {
  float W = 0.5f;
  float forward(float X) { return X * W; }
};

struct Optimizer {
  void step(Net &N, float Grad) { N.W -= 0.01f * Grad; }
};

static std::vector<float> load(int N) {
  std::vector<float> V;
  for (int I = 0; I < N; ++I)
    V.push_back(float(I) / N);
  return V;
}

float train_epoch(Net &N, Optimizer &Opt, const std::vector<float> &Data) {
  int idx = 0;
  float loss = 0;
  for (float batch : Data) {
    float Out = N.forward(batch);
    loss = (Out - batch) * (Out - batch);
    Opt.step(N, loss);
    ++idx;
  }
  return loss;
}

void checkpoint(int epoch) {
  if (epoch == 2)
    throw std::runtime_error("disk full");
}

int main() {
  Net N;
  Optimizer Opt;
  std::vector<float> Data = load(5);
  for (int epoch = 0; epoch < 3; ++epoch) {
    float L = train_epoch(N, Opt, Data);
    try {
      checkpoint(epoch);
    } catch (const std::exception &) {
      std::printf("checkpoint failed\n");
    }
    std::printf("%d %f\n", epoch, L);
  }
  return 0;
}

// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:     args: {epoch: epoch}
// SPEC:   - at: "train_epoch"
// SPEC:     category: pipeline.train
// SPEC:   - at: "train_epoch > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:     args: {step: idx}
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC:   - at: "train_epoch > *::step()"
// SPEC:     category: compute.step
// SPEC:   - at: "checkpoint(epoch) > #error as failed"
// SPEC:     category: checkpoint.capture
// SPEC:   - at: "load"
// SPEC:     category: data.preprocess
// SPEC: watches:
// SPEC:   - at: "train_epoch > loss"
// SPEC:     when: "idx % 2 == 0"
// SPEC:   - at: "train_epoch(idx as step) > #endloop_batch"
// SPEC:     every: 2
