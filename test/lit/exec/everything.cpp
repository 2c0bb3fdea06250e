// Every probe kind on every function of a program full of awkward C++
// (templates, virtuals, conversions, packs, lambdas, range-for over braced
// lists and maps, structured bindings, switch, goto, macros, smart
// pointers, comments and strings holding braces): the rewrite is
// insertions only, both compilers build it, and the program prints the
// same. Sites that cannot be instrumented are skipped with warnings.
//
// RUN: %instrument
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.clang > %t.clang.out
// RUN: diff %t.plain.out %t.clang.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir2 && env SONDE_OUTPUT=%t.dir2 %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: FileCheck %s --input-file %t.err
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "* > #loop"
// SPEC:     category: user.loop
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > *"
// SPEC:   - at: "* > #value"
// SPEC:   - at: "* > #enter"
// SPEC:   - at: "* > #exit"
//
// CHECK-DAG: warning: probe '* > #loop' skipped: loop is a macro expansion [sonde-macro]
// CHECK-DAG: warning: probe '* > *()' skipped: call of 'anon' is inside a pack expansion [sonde-unsupported]
// CHECK-DAG: warning: probe '* > *' skipped: 'j' is declared where no statement can follow
// CHECK-NOT: error:

#include <cstdio>
#include <map>
#include <string>
#include <vector>
#include <memory>
#include <functional>
#include <stdexcept>
#include <utility>

namespace {
int anon(int x) { return x + 1; }
}

extern "C" int cfun(int x) { return x * 2; }

template <class T> struct Box {
  T v;
  explicit Box(T v) : v(v) {}
  T get() const;
  Box &operator+=(const Box &o) { v += o.v; return *this; }
  operator bool() const { return v != T(); }
  T &ref() { return v; }
};
template <class T> T Box<T>::get() const { return v; }

struct Base {
  virtual ~Base() = default;
  virtual int f(int x) { return x; }
};
struct Derived final : Base {
  int f(int x) override { return Base::f(x) + 1; }
  Derived() = default;
  Derived(const Derived &) = delete;
};

[[nodiscard]] int attr(int x) { return x; }

auto trailing(int x) -> int { return x > 0 ? x : -x; }

auto multi(bool b) {
  if (b)
    return 1.5;
  return 2.5;
}

template <class... Ts> int sum(Ts... ts) { return (0 + ... + ts); }
template <class... Ts> int calls(Ts... ts) { return sum(anon(ts)...); }

int sizes(int x) {
  static_assert(sizeof(int) == 4, "int");
  decltype(anon(x)) y = sizeof(anon(x));
  bool nx = noexcept(anon(x));
  return y + nx;
}

std::pair<int, int> braced() { return {1, 2}; }

int loops(int n) {
  int total = 0, i = 0;
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  for (auto &[k, v] : m)
    total += v + (int)k.size();
  do {
    ++i;
    if (i % 2)
      continue;
    total += i;
  } while (i < n);
  for (int j = 0, k = 10; j < k; ++j, --k)
    total += j;
  while (true) {
    if (total > 100) break;
    total += 7;
  }
  int arr[3] = {1, 2, 3};
  for (int x : arr) total += x;
  for (int x : {4, 5}) total += x;
  switch (n) {
  case 1: {
    int local = 3;
    total += local;
  }
  [[fallthrough]];
  case 2:
    total *= 2;
    break;
  default:
    break;
  }
  int &r = total;
  r = r + 1;
  const int c = total;
  total = (total > 5) ? (i = 3) : (i = 4);
  total = c, i = 2;
  if (total == 0) goto end;
  total += 1 /* ; { */;
  total += std::string("};{").size();
end:
  return total;
}

int lambdas(int n) {
  int acc = 0;
  auto add = [&acc](int v) { acc += v; return acc; };
  auto gen = [](auto x) { return x * 2; };
  int r = [&] { return add(n) + gen(n); }();
  std::function<int(int)> fn = [=](int v) mutable { n += v; return n; };
  return r + fn(1) + acc;
}

struct Local {
  int go(int x) {
    struct Inner { static int h(int y) { return y + 1; } };
    return Inner::h(x);
  }
};

int throws(int x) {
  try {
    if (x > 2) throw std::runtime_error("x");
    return x;
  } catch (const std::exception &) {
    return -1;
  }
}

template <class T> T constexpr_if(T x) {
  if constexpr (sizeof(T) > 4)
    return x * 2;
  else
    return x;
}

#define LOOP(n) for (int q = 0; q < n; ++q)
int macros(int n) {
  int s = 0;
  LOOP(n) { s += q; }
  return s;
}

int main() {
  Box<int> b(3);
  b += Box<int>(4);
  Derived d;
  Base &bref = d;
  int t = anon(1) + cfun(2) + b.get() + (b ? 1 : 0) + bref.f(2) + attr(3) +
          trailing(-4) + (int)multi(true) + calls(1, 2, 3) + sizes(2) +
          braced().first + loops(3) + lambdas(2) + Local().go(1) + throws(3) +
          (int)constexpr_if(2L) + macros(3);
  b.ref() = 9;
  std::unique_ptr<Base> p = std::make_unique<Derived>();
  t += p->f(1);
  std::printf("%d %d\n", t, b.get());
  return 0;
}
