int step2(int x) { return step2(x - 1); }
