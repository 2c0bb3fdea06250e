// A global operator new/delete (any form) and a C allocator defined with C
// linkage are not instrumented: the runtime allocates as it starts and
// registers sites, so a probe there re-entered it and the program hung on
// its first record. A class's own operator new is instrumented (the runtime
// never allocates through it).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC: watches:
// SPEC:   - at: "* > *"

#include <cstdlib>
#include <new>

void *operator new(std::size_t n) {
  void *p = std::malloc(n ? n : 1);
  if (!p)
    throw std::bad_alloc();
  return p;
}
// CHECK: {{^}}void *operator new(std::size_t n) {{[{]$}}
// CHECK-NEXT: {{^}}  void *p = std::malloc(n ? n : 1);{{$}}
// DIAG-DAG: skip-allocator.cpp:21:7: warning: probe '*' skipped: 'operator new': function is a global allocation function [sonde-allocator]
// DIAG-DAG: skip-allocator.cpp:21:7: warning: probe '* > *' skipped: 'operator new': function is a global allocation function [sonde-allocator]
void operator delete(void *p) noexcept { std::free(p); }
// CHECK: {{^}}void operator delete(void *p) noexcept { std::free(p); }
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  return std::malloc(n);
}
// CHECK: {{^}}void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {{[{]$}}

namespace shim {
extern "C" void *calloc(std::size_t n, std::size_t s) noexcept;
}

struct Pool {
  static void *operator new(std::size_t n) {
    // CHECK: {{^}}  static void *operator new(std::size_t n) { static ::sonde::SiteTable {{.*}}\nPool::operator new\n{{.*}} ::sonde::InsertedRegion
    void *q = ::operator new(n);
    return q;
  }
  static void operator delete(void *q) { ::operator delete(q); }
};

int main() {
  Pool *p = new Pool;
  delete p;
  return 0;
}
// DIAG-DAG: skip-allocator.cpp:31:6: warning: probe '*' skipped: 'operator delete': function is a global allocation function [sonde-allocator]
// DIAG-DAG: skip-allocator.cpp:33:7: warning: probe '*' skipped: 'operator new[]': function is a global allocation function [sonde-allocator]
// DIAG-NOT: Pool
