// Names a selector could not spell before: conversion operators and
// `operator new` (clang names them `A::operator bool`), operators and
// qualified names written with spaces (`operator <<`, `A :: get`, as C++
// allows), and Unicode identifiers. Each is matched as clang names it.
//
// RUN: %instrument
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   2>&1 | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "A::operator bool"
// SPEC:   - at: "A::operator unsigned int"
// SPEC:   - at: "A::operator  new"
// SPEC:   - at: "A::operator <<"
// SPEC:   - at: "A :: get"
// SPEC:   - at: "grüße"
// SPEC: watches:
// SPEC:   - at: "use > größe"

#include <cstddef>
#include <new>

struct A {
  int v = 0;
  explicit operator bool() const { return v != 0; }
  operator unsigned int() const { return unsigned(v); }
  static void *operator new(std::size_t n) { return ::operator new(n); }
  static void operator delete(void *p) { ::operator delete(p); }
  A &operator<<(int x) {
    v += x;
    return *this;
  }
  int get() { return v; }
};

int grüße() { return 1; }

int use() {
  A *a = new A;
  *a << 3;
  int größe = a->get() + grüße();
  größe += bool(*a) ? int(unsigned(*a)) : 0;
  delete a;
  return größe;
}

// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user operator bool {{.*}}odd-names.cpp:26 A::operator bool
// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user operator unsigned int {{.*}}odd-names.cpp:27 A::operator unsigned int
// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user operator new {{.*}}odd-names.cpp:28 A::operator new
// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user operator<< {{.*}}odd-names.cpp:30 A::operator<<
// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user get {{.*}}odd-names.cpp:34 A::get
// CHECK-DAG: {{^}}{{[0-9a-f]+}} region user grüße {{.*}}odd-names.cpp:37 grüße
// CHECK-DAG: {{^}}{{[0-9a-f]+}} watch user größe {{.*}}odd-names.cpp:42 use größe :int
// CHECK-DAG: {{^}}{{[0-9a-f]+}} watch user größe {{.*}}odd-names.cpp:43 use größe :int
// CHECK-NOT: matches nothing
