#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>
