#include "model.h"

std::vector<float> loadData(int N) {
  std::vector<float> V;
  for (int I = 0; I < N; ++I)
    V.push_back(float(I) / float(N));
  return V;
}
