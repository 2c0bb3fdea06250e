// Instrumented code builds under the user's strictest warning flags: found
// on jsoncpp (-Wall -Wextra -Wshadow -Wconversion -Wpedantic), where g++
// warned 18 times per file about sonde.h's constructor parameters shadowing
// their members; under -Werror the build broke. The runtime headers are
// system headers for instrumented code, and the inserted text itself is
// warning-free: regions, watches, call sites, loops and #error, in a class
// with members named like sonde's (Kind, Name, S, Fn, Total).
//
// RUN: %instrument
// RUN: %syntax-gcc -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wpedantic -Wold-style-cast -Wuseless-cast -Werror %t.cpp
// RUN: %syntax-clang -Wextra -Wshadow-all -Wconversion -Wpedantic -Wold-style-cast -Werror %t.cpp
// The same flags on the untouched source pass, so any warning is sonde's.
// RUN: %syntax-gcc -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wpedantic -Wold-style-cast -Wuseless-cast -Werror %s
// RUN: %syntax-clang -Wextra -Wshadow-all -Wconversion -Wpedantic -Wold-style-cast -Werror %s
// RUN: FileCheck %s --input-file %t.cpp
// CHECK: {{^}}int Parser::parse(const std::vector<int> &In) { {{.*}}::sonde::InsertedRegion
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: user
// SPEC:   - at: "Parser::parse > #loop"
// SPEC:     category: user.loop
// SPEC:   - at: "Parser::parse > step()"
// SPEC:     category: user.call
// SPEC:   - at: "Parser::fail > #error"
// SPEC: watches:
// SPEC:   - at: "Parser::* > *"

#include <stdexcept>
#include <vector>

struct Parser {
  int Kind = 0;
  const char *Name = "p";
  int S = 0;
  long Total = 0;
  int step(int V) { return V + Kind; }
  int parse(const std::vector<int> &In);
  void fail(int Fn);
};

int Parser::parse(const std::vector<int> &In) {
  int Sum = 0;
  for (int V : In) {
    short Small = static_cast<short>(V);
    Sum += step(Small);
  }
  unsigned Count = 0;
  while (Count < In.size())
    ++Count;
  Total = Sum + static_cast<long>(Count);
  return Sum;
}

void Parser::fail(int Fn) {
  if (Fn > S)
    throw std::runtime_error(Name);
}
