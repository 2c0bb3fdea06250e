// split-fallback.cpp: an #if open at the first declaration.
#ifndef SPLIT_GUARDED
#define SPLIT_GUARDED

#include <vector>

int first() { return 1; }

int second() { return int(std::vector<int>{1, 2}.size()); }

#endif
