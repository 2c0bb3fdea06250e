int step(int x) { return x + 1; }
