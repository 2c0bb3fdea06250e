#ifndef MODEL_H
#define MODEL_H
#include <vector>

struct Model {
  float W = 0.5f;
  float forward(float X);
  void update(float Grad);
};

std::vector<float> loadData(int N);

#endif
