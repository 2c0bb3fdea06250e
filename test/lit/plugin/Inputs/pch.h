#include <cstdio>
#include <vector>
