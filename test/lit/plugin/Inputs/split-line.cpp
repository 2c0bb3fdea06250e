// split-fallback.cpp: a #line before the first declaration.
#include <vector>
#line 100
int first() { return 1; }

int second() { return int(std::vector<int>{1, 2}.size()); }
