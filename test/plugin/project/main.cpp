#include "model.h"

#include <cstdio>

float trainEpoch(Model &M, const std::vector<float> &Data) {
  float loss = 0;
  for (float X : Data) {
    float Err = M.forward(X) - X;
    loss = Err * Err;
    M.update(Err);
  }
  return loss;
}

int main() {
  Model M;
  std::vector<float> Data = loadData(4);
  for (int epoch = 0; epoch < 2; ++epoch)
    std::printf("epoch %d loss %f\n", epoch, trainEpoch(M, Data));
  return 0;
}
