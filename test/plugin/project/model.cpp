#include "model.h"

float Model::forward(float X) { return X * W; }

void Model::update(float Grad) { W -= 0.1f * Grad; }
