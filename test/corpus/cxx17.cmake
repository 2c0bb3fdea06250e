# CMAKE_PROJECT_INCLUDE_BEFORE for the corpus builds (scripts/test-corpus):
# runs first in each project() call, before the compiler checks. jsoncpp
# sets CMAKE_CXX_STANDARD to 11 in its CMakeLists.txt, over the cache's 17;
# instrumented code needs C++17 (sonde.h stops with an #error under C++11),
# and the plain build is compiled the same way for the ratio.
set(CMAKE_CXX_STANDARD 17)
