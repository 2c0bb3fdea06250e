// std::atomic and volatile locals. An atomic's `a += 1` returns the new
// value (an int prvalue), not the atomic: inside an expression the value
// passes through passValue (passRef would have returned a reference to a
// temporary); as a statement the watch follows (atomics are not recordable
// types: it compiles to nothing). A volatile local is read once by its
// watch after each write.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "* > *"

#include <atomic>

int atomics() {
  std::atomic<int> a{0};
  a += 2;
  // CHECK: {{^}}  a += 2; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, a);
  int x = (a += 1);
  // CHECK: {{^}}  int x = (::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], a += 1)); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x);
  int y = (a = 7);
  // CHECK: {{^}}  int y = (::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], a = 7)); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y);
  return x + y + a.load();
}

int volatiles() {
  volatile int v = 1;
  // CHECK: {{^}}  volatile int v = 1; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, v);
  v = 2;
  // CHECK: {{^}}  v = 2; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, v);
  const volatile int cv = 9;
  // CHECK: {{^}}  const volatile int cv = 9; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, cv);
  return v + cv;
}
