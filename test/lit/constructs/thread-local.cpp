// Static and thread_local locals: a static local's initialization is
// recorded once per process, a thread_local's once per thread (its
// initializer runs in each thread; the once-flag is thread_local too).
// constinit statics are the same.
//
// RUN: %instrument20
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "f > *"

int f(int v) {
  static int calls = 0;
  // CHECK: {{^}}  static int calls = 0; static const bool sonde_once_[[A:[0-9a-f]+]] = (::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, calls), true); (void)sonde_once_[[A]];
  thread_local int mine = 10;
  // CHECK: {{^}}  thread_local int mine = 10; thread_local const bool sonde_once_[[B:[0-9a-f]+]] = (::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, mine), true); (void)sonde_once_[[B]];
  static thread_local int also = 1;
  // CHECK: {{^}}  static thread_local int also = 1; thread_local const bool sonde_once_{{.*}}
  constinit static int ci = 2;
  // CHECK: {{^}}  constinit static int ci = 2; static const bool sonde_once_{{.*}}
  ++calls;
  mine += v;
  return calls + mine + also + ci;
}
