// The second translation unit of multi-tu.cpp.
int helper(int x) { return x + 1; }
