// `T x;` is default-initialization, whatever init style clang gives it (a
// class with a constructor, and `va_list ap;`, are `callinit`): it is not
// a write, and a trivial class holds indeterminate values, so it is not
// watched (it once was: a read of indeterminate values, and g++ warned on
// va_list). `T x = T();`, `T x{}` and `T x(1)` are written initializations.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -fsyntax-only -include sonde/sonde.h -I %sonde-include %t.cpp
// RUN: %syntax-gcc -Wall -Wextra -Werror %t.cpp
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "* > *"

#include <cstdarg>
#include <string>

struct P {
  int x;
};
struct Q {
  int x;
  Q() : x(1) {}
  explicit Q(int v) : x(v) {}
};

int f() {
  P p;
  // CHECK: {{^}}  P p;{{$}}
  Q q;
  // CHECK: {{^}}  Q q;{{$}}
  std::string s;
  // CHECK: {{^}}  std::string s;{{$}}
  P p2 = P();
  // CHECK: {{^}}  P p2 = P(); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, p2);
  P p3{};
  // CHECK: {{^}}  P p3{}; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, p3);
  Q q2(4);
  // CHECK: {{^}}  Q q2(4); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, q2);
  std::string s2 = std::string();
  // CHECK: {{^}}  std::string s2 = std::string(); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s2);
  p.x = 0;
  return p.x + p2.x + p3.x + q.x + q2.x + int(s.size() + s2.size());
}

int sum(int n, ...) {
  va_list ap;
  // CHECK: {{^}}  va_list ap;{{$}}
  va_start(ap, n);
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += va_arg(ap, int);
  va_end(ap);
  return total;
}
