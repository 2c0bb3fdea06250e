int step(int x);
void train(int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch)
    step(epoch);
}
int step(int x) { return x + 1; }
