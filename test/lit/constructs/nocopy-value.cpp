// `#value` on classes that cannot be moved: a class whose copy and move
// constructors are deleted cannot pass through passValue (a by-value
// parameter returned); the check took a deleted copy constructor for a
// usable one and the result did not compile. Now skipped with a note, and
// no site is left behind (an unused site descriptor is -Wunused-variable,
// an error under -Werror). A move-only prvalue is skipped too (passValue
// moved it, a move the program never made: issue 12 item 2); call sites
// that return them are wrapped (the comma keeps guaranteed elision).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -fsyntax-only -include sonde/sonde.h -I %sonde-include %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > make*()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > #value"
// SPEC:   - at: "* > *"

#include <memory>
#include <mutex>

struct Pinned {
  int v;
  explicit Pinned(int v) : v(v) {}
  Pinned(const Pinned &) = delete;
  Pinned(Pinned &&) = delete;
};

Pinned makePinned(int v) { return Pinned(v); }
// CHECK: {{^}}Pinned makePinned(int v) { static ::sonde::SiteTable sonde_sites_[[V:[0-9a-f]+]]({{[^;]*}}; ::sonde::watchIntAt(sonde_sites_[[V]], 0, v); return Pinned(v); }
// DIAG: nocopy-value.cpp:[[@LINE-2]]:28: warning: probe '* > #value' skipped: the returned object cannot pass through a watch unchanged (it cannot be copied or moved) [sonde-unsupported]

std::unique_ptr<int> makeOwned(int v) { return std::make_unique<int>(v); }
// CHECK: {{^}}std::unique_ptr<int> makeOwned(int v) {{.*}} return ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), std::make_unique<int>(v)); }
// DIAG: nocopy-value.cpp:[[@LINE-2]]:41: warning: probe '* > #value' skipped: the returned 'std::unique_ptr<int>' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]

std::mutex mu;
int use(int v) {
  const std::lock_guard<std::mutex> lock(mu);
  // CHECK: {{^}}  const std::lock_guard<std::mutex> lock(mu); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lock);
  Pinned p = makePinned(v);
  // CHECK: {{^}}  Pinned p = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), makePinned(v)); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, p);
  auto o = makeOwned(v);
  return p.v + *o;
}
