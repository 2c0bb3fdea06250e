// Functions are regions: methods, constructors, destructors, operators,
// templates (once, for all instantiations), matched by qualified-name globs.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*::forward"
// SPEC:     category: compute.forward
// SPEC:   - at: "Net::Net"
// SPEC:     category: compute.init
// SPEC:   - at: "Net::~Net"
// SPEC:     category: user.teardown
// SPEC:   - at: "Net::operator()"
// SPEC:     category: compute
// SPEC:   - at: "ns::*"
// SPEC:     category: data.preprocess
// SPEC:   - at: "scale"
// SPEC:     category: compute

// Methods, by a glob on the qualified name.
struct Net {
  Net() : w(2) {}
  // CHECK: {{^}}  Net() : w(2) { static ::sonde::SiteTable sonde_sites_[[CTOR:[0-9a-f]+]]("{{[0-9]+}}\n1\n{{.*}}function-region.cpp\nNet::Net\n1\n0\n[[@LINE-1]]\n{{[0-9a-f]+}}\ncompute.init\nNet\n\n\n"); ::sonde::InsertedRegion sonde_region_[[CTOR]](sonde_sites_[[CTOR]], 0);}
  ~Net() { w = 0; }
  // CHECK: {{^}}  ~Net() { static ::sonde::SiteTable {{.*}}\nNet::~Net\n{{.*}}\nuser.teardown\nteardown\n{{.*}} ::sonde::InsertedRegion sonde_region_{{.*}} w = 0; }
  float forward(float x) { return x * w; }
  // CHECK: {{^}}  float forward(float x) { static ::sonde::SiteTable {{.*}}\nNet::forward\n{{.*}}\ncompute.forward\nforward\n{{.*}}); ::sonde::InsertedRegion {{.*}} return x * w; }
  float operator()(float x) { return forward(x); }
  // CHECK: {{^}}  float operator()(float x) { static ::sonde::SiteTable {{.*}}\nNet::operator()\n{{.*}}\ncompute\noperator()\n{{.*}} return forward(x); }
  float w;
};

namespace ns {
struct Other {
  float forward(float x) { return x; }
  // CHECK: {{^}}  float forward(float x) { static ::sonde::SiteTable {{.*}}\nns::Other::forward\n{{.*}}\ncompute.forward\n{{.*}}\ndata.preprocess\n{{.*}} ::sonde::InsertedRegion {{.*}} ::sonde::InsertedRegion {{.*}} return x; }
};
int helper(int x) { return x + 1; }
// CHECK: {{^}}int helper(int x) { static ::sonde::SiteTable {{.*}}\nns::helper\n{{.*}}\ndata.preprocess\npreprocess\n
} // namespace ns

// A template is instrumented once, in its pattern.
template <class T> T scale(T x) { return x * 2; }
// CHECK: {{^}}template <class T> T scale(T x) { static ::sonde::SiteTable {{.*}}\nscale\n{{.*}}\ncompute\nscale\n{{.*}}
int useScale() { return scale(1) + int(scale(2.0)); }

// Unchanged: a lambda is not a function a selector names.
auto Fwd = [](float x) { return x; };
// CHECK: {{^}}auto Fwd = [](float x) { return x; };

// SITES-DAG: region compute.init Net {{.*}}function-region.cpp:26 Net::Net
// SITES-DAG: region user.teardown teardown {{.*}}:28 Net::~Net
// SITES-DAG: region compute.forward forward {{.*}}:30 Net::forward
// SITES-DAG: region compute operator() {{.*}}:32 Net::operator()
// SITES-DAG: region compute.forward forward {{.*}}:39 ns::Other::forward
// SITES-DAG: region data.preprocess preprocess {{.*}}:39 ns::Other::forward
// SITES-DAG: region data.preprocess preprocess {{.*}}:42 ns::helper
// SITES-DAG: region compute scale {{.*}}:47 scale
// SITES-NOT: scale
