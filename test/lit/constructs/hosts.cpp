// Which functions are hosts, and under which name: methods of local
// classes, friends defined in a class (named at namespace scope), inline
// and anonymous namespaces (an inline namespace is not part of the name), explicit specializations (a host of their
// own), members of class templates defined out of line, CRTP bases,
// virtual/override/final methods, conversion operators, user-defined
// literals (a constexpr one skipped), `extern "C"` functions. Deduction
// guides, `= default` and `= delete` have no body: nothing, and no note.
//
// RUN: %instrument
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 | FileCheck %s
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute

#include <string>

int with_local_class(int x) {
  struct Acc {
    int total = 0;
    void add(int v) { total += v; }
  };
  Acc a;
  a.add(x);
  return a.total;
}
// CHECK-DAG: region compute with_local_class {{.*}}hosts.cpp:20 with_local_class
// CHECK-DAG: region compute add {{.*}}hosts.cpp:23 with_local_class(int)::Acc::add

struct Friendly {
  int v;
  friend int peek(const Friendly &f) { return f.v; }
};
// CHECK-DAG: region compute peek {{.*}}hosts.cpp:34 peek

inline namespace v1 {
int inl(int x) { return x + 10; }
}
// CHECK-DAG: region compute inl {{.*}}hosts.cpp:39 inl
namespace {
int hidden(int x) { return x; }
}
// CHECK-DAG: region compute hidden {{.*}}hosts.cpp:43 (anonymous namespace)::hidden

template <class T> int kind(T) { return 0; }
template <> int kind<double>(double d) { return d > 1 ? 2 : 1; }
// CHECK-DAG: region compute kind {{.*}}hosts.cpp:48 kind
// CHECK-DAG: region compute kind {{.*}}hosts.cpp:47 kind

template <class T> struct Holder {
  T v;
  T get() const;
};
template <class T> T Holder<T>::get() const { return v; }
// CHECK-DAG: region compute get {{.*}}hosts.cpp:56 Holder::get

template <class D> struct Base {
  int run() { return static_cast<D *>(this)->step(); }
};
struct Impl : Base<Impl> {
  int step() { return 5; }
};
// CHECK-DAG: region compute run {{.*}}hosts.cpp:60 Base::run
// CHECK-DAG: region compute step {{.*}}hosts.cpp:63 Impl::step

struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
};
struct Sq final : Shape {
  int s;
  explicit Sq(int s) : s(s) {}
  Sq(const Sq &) = delete;
  int area() const override { return s * s; }
  explicit operator int() const { return s; }
};
// CHECK-DAG: region compute Sq {{.*}}hosts.cpp:74 Sq::Sq
// CHECK-DAG: region compute area {{.*}}hosts.cpp:76 Sq::area
// CHECK-DAG: region compute operator int {{.*}}hosts.cpp:77 Sq::operator int

template <class T> struct Wrap {
  T v;
  Wrap(T v) : v(v) {}
};
Wrap(const char *) -> Wrap<std::string>;
// CHECK-DAG: region compute Wrap<T> {{.*}}hosts.cpp:85 Wrap::Wrap<T>

constexpr unsigned long long operator""_k(unsigned long long v) { return v * 1000; }
// DIAG: hosts.cpp:[[@LINE-1]]:30: warning: probe '*' skipped: 'operator""_k': function is constexpr [sonde-constexpr]
long double operator""_half(long double v) { return v / 2; }
// CHECK-DAG: region compute operator""_half {{.*}}hosts.cpp:[[@LINE-1]] operator""_half

extern "C" int c_linkage(int x) { return x * 2; }
// CHECK-DAG: region compute c_linkage {{.*}}hosts.cpp:[[@LINE-1]] c_linkage

// CHECK-NOT: Shape
// DIAG-NOT: Shape
// DIAG-NOT: Wrap
